import { createContext } from "react-router";

/** The CSP nonce of the response being rendered; the edge worker sets it per request. */
export const cspNonceContext = createContext<string>("");
