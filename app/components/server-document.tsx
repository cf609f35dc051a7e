import { createContext, useContext, type ReactNode } from "react";

/**
 * What only the server knows when it renders the document: the response's CSP nonce,
 * the inline head script (zod setting, token mark, asset watch) and the page styles. The
 * browser renders empty values here and keeps the server's markup (the scripts already
 * ran, the styles stay), so none of them ships in the client bundle.
 */
export type ServerDocument = { nonce: string; headScript: string; styles: string };

const ServerDocumentContext = createContext<ServerDocument>({ nonce: "", headScript: "", styles: "" });

export function ServerDocumentProvider({ value, children }: { value: ServerDocument; children: ReactNode }) {
  return <ServerDocumentContext value={value}>{children}</ServerDocumentContext>;
}

export function useServerDocument(): ServerDocument {
  return useContext(ServerDocumentContext);
}
