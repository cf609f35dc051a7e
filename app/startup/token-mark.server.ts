/**
 * The token mark: inlined at the top of <head>, before the first paint, it marks the
 * document when this device holds a bearer token (or has just landed with a sign-in
 * link's). Pages are the same HTML for everyone; CSS then shows a visitor with a token the
 * loading state and one without the signed-out content at once, instead of a spinner until
 * hydration and start-up (docs/start-up.md, "Before hydration").
 *
 * It sets `data-token` on <html>, which app/styles/layout.css reads.
 * Kept as source text so the page carries it inline; it must stay ES5-simple.
 */
import { tokenFormat, tokenStorageKey } from "../session/token";

export const tokenMarkSource = `(function(){try{
var stored=localStorage.getItem(${JSON.stringify(tokenStorageKey)});
if(/[?&]token=/.test(location.search)||(stored&&${tokenFormat}.test(stored)))document.documentElement.setAttribute("data-token","");
}catch(e){}})();`;
