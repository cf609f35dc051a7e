/**
 * The asset watch: a tiny classic script inlined at the top of <head>, so it runs
 * before any stylesheet or module chunk can fail, and before our bundle exists.
 * It records failed <link>/<script> loads for the start-up sequence. If the app does
 * not start — an initial chunk failed, or has not loaded within the chunk time limit —
 * it reloads once (the same guard as the app's) and otherwise shows a plain
 * explanation with a reload button. The failure is reported by the next start-up.
 *
 * Kept as source text so the page carries it inline; it must stay ES5-simple.
 */
import { appStartedGlobal, assetErrorEvent, assetErrorsGlobal, chunkTimeoutMs, pendingChunkErrorKey, reloadedForKey } from "./chunk-policy";
import type { Language } from "../i18n/languages";
import { layoutCatalogue } from "../messages/layout.server";

/**
 * The explanation's words, in the page's language, as a JS literal safe inside <script>.
 * The script sets them as text, never as HTML, so nothing needs escaping but the literal.
 */
function bootFailureText(language: Language): string {
  const { bootTitle, chunkBody, reload } = layoutCatalogue[language];
  return JSON.stringify({ title: bootTitle, body: chunkBody, reload }).replace(/</g, "\\u003c");
}

export const assetWatchSource = (language: Language) => `(function(){
var failures=window.${assetErrorsGlobal}=[], given=false;
function store(k,v){try{sessionStorage.setItem(k,v);}catch(e){}}
function read(k){try{return sessionStorage.getItem(k);}catch(e){return null;}}
function giveUp(url,reason){
  if(window.${appStartedGlobal}||given)return;
  given=true;
  store("${pendingChunkErrorKey}",JSON.stringify({url:url,reason:reason}));
  if(reason==="error"&&read("${reloadedForKey}")!==url){store("${reloadedForKey}",url);location.reload();return;}
  var main=document.createElement("main");
  main.setAttribute("role","alert");
  main.className="boot-failure";
  var text=${bootFailureText(language)}, title=document.createElement("h1"), body=document.createElement("p"), button=document.createElement("button");
  title.textContent=text.title;body.textContent=text.body;button.type="button";button.textContent=text.reload;
  button.addEventListener("click",function(){location.reload();});
  main.append(title,body,button);
  document.body.replaceChildren(main);
  button.focus();
}
addEventListener("error",function(event){
  var el=event.target;
  if(!el||!el.tagName)return;
  var tag=el.tagName, rel=(el.rel||"").toLowerCase(), kind=null, url="";
  if(tag==="SCRIPT"){kind="script";url=el.src||location.pathname;}
  else if(tag==="LINK"&&rel==="modulepreload"){kind="script";url=el.href;}
  else if(tag==="LINK"&&rel==="stylesheet"){kind="stylesheet";url=el.href;}
  if(!kind)return;
  var failure={kind:kind,url:url};
  failures.push(failure);
  dispatchEvent(new CustomEvent("${assetErrorEvent}",{detail:failure}));
  if(kind==="script")setTimeout(function(){giveUp(url,"error");},0);
},true);
setTimeout(function(){giveUp(location.pathname,"timeout");},${chunkTimeoutMs});
})();`;
