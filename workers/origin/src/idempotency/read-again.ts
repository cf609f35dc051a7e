/**
 * For a change worked out from a read that its batch states again (batch-assertion.ts): when
 * another request changed what was read in between, the batch rolls back, and the change
 * reads again and is worked out anew, as it would have been had it come second. The caller
 * throws `ChangedMeanwhile` once it has told that case apart from its own refusals.
 */
export class ChangedMeanwhile extends Error {}

/** Runs `change`, again while it throws `ChangedMeanwhile`, a few times at most. */
export async function readingAgainIfChanged<T>(change: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof ChangedMeanwhile) || attempt === attempts) throw error;
    }
  }
}
