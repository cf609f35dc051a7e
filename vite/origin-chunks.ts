/**
 * How the origin worker's build is cut (docs/decisions/041-origin-routers-on-first-use.md).
 * The origin imports each router with `import()` (workers/origin/src/routers.ts), so that a
 * cold isolate evaluates only the routers its first request reaches. Left to itself the
 * bundler would make each such import a file of its own, and workerd compiles every uploaded
 * file at start anyway, then loads the router's files one `import()` at a time on the first
 * request (decision 030). Here the origin is three files:
 *
 * - `origin`: the worker and every router in one file, which a start compiles whole. Its
 *   modules run in the order they are first needed, not all at once when the file loads
 *   (`strictExecutionOrder`): a router's module, its schemas' modules and their
 *   dependencies run on the first `import()` of that router;
 * - `sentry-sdk` and `webauthn`: Sentry's SDK (loaded only where a DSN is configured,
 *   decision 023) and SimpleWebAuthn's verifier with its X.509 stack (loaded on a passkey's
 *   first ceremony, decision 025), each with everything only it imports.
 */
import type { Rolldown } from "vite";

type CodeSplittingOptions = Exclude<NonNullable<Rolldown.OutputOptions["codeSplitting"]>, boolean>;

export function originChunks(): Pick<Rolldown.OutputOptions, "strictExecutionOrder"> & { codeSplitting: CodeSplittingOptions } {
  return {
    strictExecutionOrder: true,
    codeSplitting: {
      groups: [
        // A group takes in what its modules import (the bundler's default), so naming the
        // module each `import()` loads is enough; both outrank the group of everything else.
        { name: "sentry-sdk", test: /[\\/]workers[\\/]origin[\\/]src[\\/]sentry-sdk\.ts$/, priority: 2 },
        { name: "webauthn", test: /[\\/]node_modules[\\/]@simplewebauthn[\\/]server[\\/]/, priority: 2 },
        { name: "origin", test: /./, priority: 1 },
      ],
    },
  };
}
