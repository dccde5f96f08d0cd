import{j as a,k as b,l as c}from"./chunk-UUWIPLTX.js";import"./chunk-6YDI7IY4.js";import"./chunk-EI7MMDWY.js";export{b as RUNNING_EXIT_CODE,a as USAGE_EXIT_CODE,c as padServerMain};
