// A group of schemas fetched on first use (app/contract-schemas.ts): import it from there only.
export { postTaskBodySchema, rejectBodySchema, submitProofBodySchema } from "#contract/tasks";
