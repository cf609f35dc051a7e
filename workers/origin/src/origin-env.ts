/** What every origin handler can reach: the bindings and the injected clock. */
export type Clock = { now(): number };

export type OriginEnv = {
  Bindings: Env;
  Variables: { clock: Clock };
};
