import { createContext, useContext, type ReactNode } from "react";

/**
 * What only the server knows when it renders the document: the response's CSP nonce
 * and the inline head script (zod setting, token mark, asset watch). The browser renders empty values here and keeps the
 * server's markup (the scripts already ran), so neither ships in the client bundle.
 */
export type ServerDocument = { nonce: string; headScript: string };

const ServerDocumentContext = createContext<ServerDocument>({ nonce: "", headScript: "" });

export function ServerDocumentProvider({ value, children }: { value: ServerDocument; children: ReactNode }) {
  return <ServerDocumentContext value={value}>{children}</ServerDocumentContext>;
}

export function useServerDocument(): ServerDocument {
  return useContext(ServerDocumentContext);
}
