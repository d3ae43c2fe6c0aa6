/**
 * The seed of every property-based test: fixed by default so that CI is repeatable;
 * `FUZZ_SEED=<number>` replays a run, `FUZZ_SEED=random` explores a new one (printed in the test name).
 */
export const FUZZ_SEED =
  process.env.FUZZ_SEED === 'random' ? Date.now() % 2_147_483_647 : Number(process.env.FUZZ_SEED ?? 20261122);
