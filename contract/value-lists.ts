/**
 * Lists of values that the contract's schemas and the pages both use, as plain arrays with no
 * zod: the pages render them (a ticket's categories, the order filter), and the edge's server
 * build must be able to import them without building a schema
 * (docs/decisions/034-lighter-edge.md).
 */
export const orderStatuses = ["pending", "paid", "closed"] as const;

export const ticketCategories = ["payment", "order", "transfer", "task", "account", "other"] as const;
