import{j as a,k as b,l as c}from"./chunk-GOP4QHKB.js";import"./chunk-K43VGZ4F.js";import"./chunk-EI7MMDWY.js";export{b as RUNNING_EXIT_CODE,a as USAGE_EXIT_CODE,c as padServerMain};
