import{b as Y,d as T,e as k}from"./chunk-HUDGEGKO.js";import{a as l}from"./chunk-EI7MMDWY.js";import{createClient as L}from"npm:redis@5.12.1";var $=`
local found = redis.call('GET', KEYS[1])
if not found then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[4])
  return {'claimed'}
end
local record = cjson.decode(found)
if record.f ~= ARGV[5] then return {'reused'} end
if record.s == 'running' and redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {'takeover', found}
end
return {'known', found}
`,b=`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`,P=`
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
`,v=`
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
redis.call('DEL', KEYS[2])
return 1
`;var f="rustpad-mcp:",H=24*60*60*1e3;async function S(o){let e=await crypto.subtle.digest("SHA-256",new TextEncoder().encode(o));return Array.from(new Uint8Array(e),t=>t.toString(16).padStart(2,"0")).join("")}l(S,"sha256");var g=class{static{l(this,"RedisAuthors")}#e;#r;#t=new k;constructor(e,t){this.#e=e,this.#r=t}async#n(e){return`${f}authors:${await S(`${this.#r}\0${e}`)}`}record(e,t,n){this.#t.record(e,t,n),this.#n(e).then(r=>this.#e("record an author",s=>s.multi().hSet(r,String(t),n).pExpire(r,H).exec())).catch(()=>{})}async learn(e,t){let n=[...new Set(t)].filter(r=>this.#t.identityOf(e,r)===void 0);if(n.length!==0)try{let r=await this.#n(e),s=await this.#e("read authors",a=>a.hmGet(r,n.map(String)));n.forEach((a,c)=>{let i=s[c];typeof i=="string"&&this.#t.record(e,a,i)})}catch{}}identityOf(e,t){return this.#t.identityOf(e,t)}};var M=24*60*60*1e3,I=`
local function unpend(id, member)
  if redis.call('SREM', KEYS[2], id) == 0 then return end
  redis.call('SREM', KEYS[3], member)
  local who = redis.call('HGET', KEYS[4], id)
  redis.call('HDEL', KEYS[4], id)
  if not who then return end
  for _, key in ipairs({KEYS[5], KEYS[6]}) do
    if redis.call('HINCRBY', key, who, -1) <= 0 then redis.call('HDEL', key, who) end
  end
end
`,_=`
if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[4]) then return 'full' end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 'pad-full' end
local who = ARGV[7]
local active = redis.call('HLEN', KEYS[6])
if redis.call('HEXISTS', KEYS[6], who) == 0 then active = active + 1 end
local identities = math.max(tonumber(ARGV[8]), active)
local padShare = math.max(1, math.floor(tonumber(ARGV[3]) / identities))
if tonumber(redis.call('HGET', KEYS[5], who) or '0') >= padShare then
  return 'share:pad:' .. padShare .. ':' .. identities
end
local totalShare = math.max(1, math.floor(tonumber(ARGV[4]) / identities))
if tonumber(redis.call('HGET', KEYS[6], who) or '0') >= totalShare then
  return 'share:total:' .. totalShare .. ':' .. identities
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[6])
redis.call('HSET', KEYS[4], ARGV[1], who)
redis.call('HINCRBY', KEYS[5], who, 1)
redis.call('HINCRBY', KEYS[6], who, 1)
for i = 1, 5 do
  if i ~= 3 then redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
end
return 'added'
`,N=`${I}
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if ARGV[4] ~= '1' then unpend(ARGV[1], ARGV[5]) end
return 1
`,U=`${I}
unpend(ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
`,y="keep suggestions",p=class{static{l(this,"RedisSuggestions")}#e;#r;constructor(e,t){this.#e=e,this.#r=t}async#t(e,t){let n=await S(`${this.#r}\0${e}`),r=`${f}suggestions:${n}`;return{records:r,keys:[r,`${r}:pending`,`${f}suggestions:pending`,`${r}:owners`,`${r}:by-identity`,`${f}suggestions:by-identity`],member:`${n}:${t}`}}async all(e){let{records:t}=await this.#t(e,""),n=await this.#e(y,r=>r.hGetAll(t));return new Map(Object.entries(n))}async get(e,t){let{records:n}=await this.#t(e,t);return await this.#e(y,s=>s.hGet(n,t))??void 0}async add(e,t,n,r,s){let{keys:a,member:c}=await this.#t(e,t),i=String(await this.#e(y,R=>R.eval(_,{keys:a,arguments:[t,n,String(r.perPad),String(r.total),String(M),c,s.identity,String(s.identities)]})));if(!i.startsWith("share:"))return i;let[,d,h,m]=i.split(":");return{share:d==="pad"?"pad":"total",of:Number(h),identities:Number(m)}}async swap(e,t,n,r,s){let{keys:a,member:c}=await this.#t(e,t);return await this.#e(y,i=>i.eval(N,{keys:a,arguments:[t,n,r,s?"1":"0",c]}))===1}async remove(e,t){let{keys:n,member:r}=await this.#t(e,t);await this.#e(y,s=>s.eval(U,{keys:n,arguments:[t,r]}))}};var D=10*60*1e3,x=50;function O(o){let e=new URL(o.href);return e.username="",e.password="",e.href.replace(/\/$/,"/0")}l(O,"redactedLocation");function X(o){let e=Number(o);return Number.isSafeInteger(e)?e:BigInt(o)}l(X,"userIdOf");var C=crypto.randomUUID();async function se(o){let e=O(o.url),t=o.log??(i=>console.error(i)),n=!1,r=L({url:o.url.href,...o.password!==void 0&&{password:o.password},disableOfflineQueue:!0,socket:{connectTimeout:o.timeoutMs,reconnectStrategy:l((i,d)=>n?Math.min(50*2**i,1e3):d,"reconnectStrategy")}}),s,a=!1;r.on("error",i=>{s=i,!(!n||a)&&(a=!0,t(`rustpad-mcp: Redis at ${e} (RUSTPAD_STATE_URL) is unreachable (${i.message}): calls with idempotency_key or confirm_token fail until it is back; reconnecting`))}),r.on("ready",()=>{a&&(a=!1,t(`rustpad-mcp: Redis at ${e} (RUSTPAD_STATE_URL) is back`))});let c;try{await Promise.race([r.connect().then(()=>r.ping()),new Promise((i,d)=>{c=setTimeout(()=>d(s??new Error("no answer")),o.timeoutMs)})])}catch(i){throw r.isOpen&&r.destroy(),new T("start",e,{cause:i})}finally{clearTimeout(c)}return n=!0,new K(r,e,o)}l(se,"openRedisState");var K=class{static{l(this,"RedisState")}kind="redis";location;usedTokens;idempotency;authors;suggestions;#e;#r=!1;constructor(e,t,n){this.#e=e,this.location=t;let r=l((s,a)=>this.#t(s,a,n.timeoutMs),"command");this.usedTokens={has:l(async s=>await r("redeem confirm_token",a=>a.exists(`${f}token:${s}`))===1,"has"),use:l(async(s,a)=>await r("redeem confirm_token",c=>c.set(`${f}token:${s}`,"1",{NX:!0,PX:Math.max(1,a-Date.now())}))==="OK","use")},this.idempotency=new V(r,n.timeoutMs),this.authors=new g(r,n.rustpadUrl.href),this.suggestions=new p(r,n.rustpadUrl.href)}health(){return this.#e.isReady?"ok":"unreachable"}async#t(e,t,n){let r;try{return await Promise.race([t(this.#e),new Promise((s,a)=>{r=setTimeout(()=>a(new Error(`no answer within ${n} ms`)),n)})])}catch(s){throw new T(e,this.location,{cause:s})}finally{clearTimeout(r)}}async close(){if(!this.#r){this.#r=!0;try{await this.#e.close()}catch{this.#e.destroy()}}}[Symbol.asyncDispose](){return this.close()}},A="run the call with idempotency_key",V=class{static{l(this,"RedisIdempotency")}#e;#r;constructor(e,t){this.#e=e,this.#r=t}async run(e,t,n,r,s){let a=`${f}key:${await S(`${e}\0${t}`)}`,c=`${a}:lease`,i=crypto.randomUUID(),d={s:"running",f:n,by:C},h=Date.now()+s.waitMs;for(;;){let[m,R]=await this.#e(A,u=>u.eval($,{keys:[a,c],arguments:[JSON.stringify(d),i,String(D),String(this.#r),n]}));if(m==="reused")throw new Y(t);let w={record:a,lease:c,owner:i,running:d};if(m==="claimed")return await this.#n(w,r,s);let E=JSON.parse(R);if(m==="takeover"){let u=E.sent,G=u===void 0?void 0:await this.#t(w,()=>s.settle({pad:u.pad,userId:X(u.user),revision:u.rev,...u.lin!==void 0&&{lineage:u.lin}}));return G===void 0?await this.#n(w,r,s):(await this.#s(w,{s:"done",f:n,v:G}),{value:G,replayed:!0})}if(E.s==="done")return{value:E.v,replayed:!0};if(E.s==="failed")throw new Error(E.m);if(Date.now()>=h)throw new Error(`Cannot answer the call with idempotency_key "${t}" yet as the first call with it is still running on another replica after ${s.waitMs} ms: nothing was changed by this call; repeat it later to get the first call's result`);await new Promise(u=>setTimeout(u,x))}}async#t(e,t){let n=setInterval(()=>{this.#e(A,r=>r.eval(b,{keys:[e.lease],arguments:[e.owner,String(this.#r)]})).catch(()=>{})},Math.max(10,Math.floor(this.#r/3)));try{return await t()}finally{clearInterval(n)}}async#n(e,t,n){let{record:r,lease:s,owner:a,running:c}=e,i={sending:l(async h=>{let m={...c,sent:{pad:h.pad,user:String(h.userId),rev:h.revision,...h.lineage!==void 0&&{lin:h.lineage}}};if(await this.#e(A,w=>w.eval(P,{keys:[r,s],arguments:[a,JSON.stringify(m)]}))!==1)throw new Error("Cannot send the edit as this call's claim on its idempotency_key lapsed (another replica may be running it): nothing was changed; repeat the call to get that call's result")},"sending")},d;try{d=await this.#t(e,()=>t(i))}catch(h){throw await this.#s(e,n.keep({error:h})?{s:"failed",f:c.f,m:h.message}:void 0),h}return await this.#s(e,n.keep({value:d})?{s:"done",f:c.f,v:d}:void 0),{value:d,replayed:!1}}async#s(e,t){try{await this.#e(A,n=>n.eval(v,{keys:[e.record,e.lease],arguments:[e.owner,t===void 0?"":JSON.stringify(t),String(D)]}))}catch{}}};export{se as openRedisState,O as redactedLocation};
