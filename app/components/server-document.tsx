import { createContext, useContext, type ReactNode } from "react";

/**
 * What only the server knows when it renders the document: the response's CSP nonce,
 * the inline head script (zod setting, token mark, asset watch), the page styles and the
 * layout's messages in the page's language (JSON). The browser renders empty values here
 * and keeps the server's markup (the scripts already ran, the styles stay, the messages
 * were read before hydration), so none of them ships in the client bundle.
 */
export type ServerDocument = { nonce: string; headScript: string; styles: string; layoutMessages: string };

const ServerDocumentContext = createContext<ServerDocument>({ nonce: "", headScript: "", styles: "", layoutMessages: "" });

export function ServerDocumentProvider({ value, children }: { value: ServerDocument; children: ReactNode }) {
  return <ServerDocumentContext value={value}>{children}</ServerDocumentContext>;
}

export function useServerDocument(): ServerDocument {
  return useContext(ServerDocumentContext);
}
