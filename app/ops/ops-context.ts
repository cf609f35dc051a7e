import { useOutletContext } from "react-router";
import type { OperatorSelf } from "#contract/ops";

/** The signed-in operator, as the back office's layout loaded them. */
export function useOperator(): OperatorSelf {
  return useOutletContext<OperatorSelf>();
}

export const mayDo = (operator: OperatorSelf, right: string) => operator.rights.includes(right);
