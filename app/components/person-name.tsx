import type { Person } from "#contract/people";

/**
 * A person named for a decision about money: the display name and, beside it, the handle,
 * which is unique where display names are not (docs/rules-and-limits.md, Text people type).
 */
export function PersonName({ person }: { person: Person }) {
  return (
    <span className="person-name">
      <strong>{person.displayName}</strong> <span className="person-handle">(@{person.handle})</span>
    </span>
  );
}
