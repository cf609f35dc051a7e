/** Reads what the local Sentry endpoint (sentry-sink.ts) received, from inside workerd. */
export async function envelopesMentioning(sinkUrl: string, text: string): Promise<{ path: string; items: unknown[] }[]> {
  for (let tries = 0; tries < 50; tries += 1) {
    const all = (await (await fetch(`${sinkUrl}/envelopes`)).json()) as { path: string; items: unknown[] }[];
    const found = all.filter((envelope) => JSON.stringify(envelope.items).includes(text));
    if (found.length > 0) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return [];
}
