/**
 * A promise of the event loop's next turn, from the setImmediate found when this module loaded:
 * fake timers a test installs later (sinon's replace setImmediate) must not hold back the boot or
 * listen, as they do not hold back avvio's.
 */
const realSetImmediate = setImmediate

export function nextTurn (): Promise<void> {
  return new Promise<void>((resolve) => { realSetImmediate(resolve) })
}
