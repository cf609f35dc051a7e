import { Link } from "react-router";
import { personalListPageSize } from "#contract/value-lists";
import { useMessages } from "../i18n/messages";
import { taskMessages } from "../messages/tasks";

/**
 * Links between the pages of my own claims or tasks, which come 100 at a time: back to the
 * newest, and on to older ones after a full page (docs/rules-and-limits.md, tasks).
 */
export function ListPages({ tab, before, items }: { tab: "mine" | "posted"; before?: string; items: readonly { id: string }[] }) {
  const text = useMessages(taskMessages);
  const oldest = items.length >= personalListPageSize ? items.at(-1)?.id : undefined;
  if (!before && !oldest) return null;
  return (
    <p className="pager">
      {before ? <Link to={`/task?tab=${tab}`}>{text.newest}</Link> : null}
      {oldest ? <Link to={`/task?${new URLSearchParams({ tab, before: oldest })}`}>{text.older}</Link> : null}
    </p>
  );
}
