import { errorContent } from "#contract/openapi";

/** What the back office's routes declare besides their own outcomes (docs/decisions/012-operators-and-audit.md). */
export const notAnOperator = errorContent("NOT_FOUND: not signed in as an operator (the same answer as an unknown path)");

/** 404 for a thing of `what` that does not exist, answered as to someone who is not an operator. */
export const noSuchOrNotAnOperator = (what: string) =>
  errorContent(`NOT_FOUND: no such ${what}, or not signed in as an operator (the same answer as an unknown path)`);

/** 403 for an operator whose role lacks the right; `who` says which roles hold it. */
export const forbiddenUnless = (who: string) => errorContent(`FORBIDDEN: the operator's role lacks the right (${who})`);
