/**
 * For a change worked out from a read that its batch states again (batch-assertion.ts): when
 * another request changed what was read in between, the batch rolls back, and the change
 * reads again and is worked out anew, as it would have been had it come second. The caller
 * throws `ChangedMeanwhile` once it has told that case apart from its own refusals.
 */
export class ChangedMeanwhile extends Error {}

/**
 * Runs `change`, again while it throws `ChangedMeanwhile`, three times at most; then answers
 * `givingUp` (a 409 the caller names: changed meanwhile, nothing done, try again), not a 500.
 * Only a change that cannot meet the same change twice may leave it out (a refund read
 * again waits for approval, which states no threshold).
 */
export async function readingAgainIfChanged<T>(change: () => Promise<T>, givingUp?: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof ChangedMeanwhile)) throw error;
      if (attempt < 3) continue;
      if (givingUp) return givingUp();
      throw error;
    }
  }
}
