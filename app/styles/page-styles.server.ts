/**
 * The app's styles as text, for the server to inline into each page's <head> under the
 * CSP nonce (app/root.tsx). Vite processes and minifies `?inline` CSS like a linked sheet.
 */
import pageStyles from "./page.css?inline";

export { pageStyles };
