/** Properties as plain JSON data: what a UI needs to render them. */
import type { Choice } from "../Choice.js"
import type { AnyProperty, Kind, Properties } from "./property.js"

export interface PropertyDescription {
  readonly kind: Kind
  readonly title: string
  readonly description?: string
  readonly required: boolean
  readonly secret?: true
  readonly choices?: ReadonlyArray<Choice>
  readonly dynamicOptions?: { readonly dependsOn: ReadonlyArray<string> }
  readonly defaultValue?: unknown
  readonly [constraint: string]: unknown
}

export const describe = (property: AnyProperty): PropertyDescription => ({
  kind: property.kind,
  title: property.title,
  ...(property.description !== undefined ? { description: property.description } : {}),
  required: property.required,
  ...(property.secret ? { secret: true as const } : {}),
  ...(property.choices !== undefined ? { choices: property.choices } : {}),
  ...(property.dynamicOptions !== undefined ? { dynamicOptions: { dependsOn: property.dynamicOptions.dependsOn } } : {}),
  ...(property.defaultValue !== undefined ? { defaultValue: property.defaultValue } : {}),
  ...property.constraints
})

export const describeAll = (properties: Properties): Record<string, PropertyDescription> =>
  Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, describe(property)]))
