/** The last index with a class of its own (tailwind.css generates card-enter-0 … card-enter-9). */
const LAST = 9;

/**
 * Cards enter one after another, 0.1 s apart (none with reduced motion): the class of the card
 * at `index`. Later cards, if a list ever outgrows the classes, wait as long as the tenth.
 */
export function cardEnterClass(index: number): string {
  return `motion-safe:card-enter-${Math.min(Math.max(0, Math.trunc(index)), LAST)}`;
}
