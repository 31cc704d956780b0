/** Model names users see: neutral ones (a family letter and the version), each mapped to the provider's. */
import * as Record from "effect/Record"

/**
 * The neutral names of these models, as a property's choices, and a wire model's neutral name
 * (a model without one, a newer one, as the provider names it).
 */
export const neutralNames = <const Models extends Readonly<Record<string, string>>>(models: Models) => {
  // A Map: a wire name is looked up in it, never on an object's prototype.
  const neutralOf = new Map(Object.entries(models).map(([neutral, wire]) => [wire, neutral]))
  return {
    names: Record.keys(models) as ReadonlyArray<keyof Models & string>,
    neutralOf: (wire: string): string => neutralOf.get(wire) ?? wire
  }
}
