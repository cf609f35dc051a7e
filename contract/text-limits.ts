/**
 * The product's longest texts people type, and what one deploy sets of them
 * (docs/rules-and-limits.md, docs/decisions/059-deploy-text-limits.md): a task's title (80
 * characters) and description (2,000), a proof (2,000), a transfer's note (140) and a message
 * to support (4,000). A deploy may shorten them with its `TEXT_LIMITS` setting, never
 * lengthen one; the origin enforces the deploy's on top of the published schema, `GET
 * /api/text-limits` publishes them and the pages state them. Lengths are in code points of
 * the normalised text, as the schema counts them (contract/text.ts).
 *
 * Plain TypeScript, no zod: the edge reads the same setting for its pages.
 */
import { frozenParts, settingReader, shortenedPart } from "./deploy-setting";

export type TextLimits = {
  task: { title: number; description: number };
  proof: { text: number };
  transfer: { note: number };
  /** What a person writes to support: opening a ticket, replying, or through the contact form. */
  support: { message: number };
};

/** Frozen, as every TextLimits this module gives: one object is shared by every request of an isolate. */
export const defaultTextLimits: TextLimits = frozenParts({
  task: { title: 80, description: 2_000 },
  proof: { text: 2_000 },
  transfer: { note: 140 },
  support: { message: 4_000 },
});

/** The shortest a deploy may set: room for a title, a few lines of instructions or proof, a word of thanks, a question. */
const shortest: TextLimits = frozenParts({
  task: { title: 20, description: 200 },
  proof: { text: 200 },
  transfer: { note: 20 },
  support: { message: 500 },
});

const shortened = <Part extends keyof TextLimits>(part: Part, configured: unknown): TextLimits[Part] =>
  shortenedPart(`TEXT_LIMITS.${part}`, { defaults: defaultTextLimits[part], shortest: shortest[part] }, configured, "characters");

/**
 * The text limits a deploy's `TEXT_LIMITS` setting sets: JSON such as
 * `{"task":{"description":1000},"transfer":{"note":60}}`; absent or blank, the defaults.
 * Anything else throws a DeploySettingError naming the figure.
 */
export const deployTextLimits = settingReader({
  name: "TEXT_LIMITS",
  defaults: defaultTextLimits,
  example: '{"task":{"description":1000},"transfer":{"note":60}}',
  read: (parts): TextLimits => ({
    task: shortened("task", parts.task),
    proof: shortened("proof", parts.proof),
    transfer: shortened("transfer", parts.transfer),
    support: shortened("support", parts.support),
  }),
});

/** Whether a text, as the schema stored it (normalised), is longer than `max` code points. */
export const longerThan = (text: string, max: number): boolean => [...text].length > max;
