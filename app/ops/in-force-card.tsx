/*
 * A card of the overview showing a deploy setting as the origin applies it
 * (docs/decisions/053-deploy-limits.md, 054, 055): its figures, whether the pages state the
 * same, or that the origin gave none.
 */
import type { ReactNode } from "react";

export type InForce = {
  /** Names the card's test ids: `ops-<id>`, `ops-<id>-differ`, `ops-<id>-unreadable`. */
  id: string;
  title: string;
  /** Null when the origin did not answer with the figures. */
  facts: [label: string, value: ReactNode][] | null;
  /** Whether the pages state the same figures; a setting the pages never state has a note instead. */
  agreement: { same: boolean; agree: string; differ: string } | { note: string };
  unreadable: string;
};

/**
 * Whether the origin's figures and the pages' are the same, part by part. A part one side
 * lacks differs: an origin deployed before a figure was set per deploy answers without it.
 */
export function sameFigures(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a === b;
  const parts = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...parts].every((part) => sameFigures((a as Record<string, unknown>)[part], (b as Record<string, unknown>)[part]));
}

export function InForceCard({ id, title, facts, agreement, unreadable }: InForce) {
  return (
    <section aria-labelledby={`ops-${id}-title`} className="card">
      <h2 id={`ops-${id}-title`}>{title}</h2>
      {facts ? (
        <>
          <dl className="ops-facts" data-testid={`ops-${id}`}>
            {facts.map(([label, value]) => (
              <div key={label} className="ops-fact">
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          {"note" in agreement ? (
            <p className="item-meta">{agreement.note}</p>
          ) : agreement.same ? (
            <p className="item-meta">{agreement.agree}</p>
          ) : (
            <p className="form-error" data-testid={`ops-${id}-differ`}>
              {agreement.differ}
            </p>
          )}
        </>
      ) : (
        <p className="form-error" data-testid={`ops-${id}-unreadable`}>
          {unreadable}
        </p>
      )}
    </section>
  );
}
