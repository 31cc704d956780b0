/** Collections: a site's list, and one collection's fields. */
import { type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const { path } = ProviderRequest

/** A collection, as a site's list has it. */
export const Collection = Schema.Struct({
  id: Schema.String,
  displayName: Schema.optional(Schema.String),
  singularName: Schema.optional(Schema.String),
  slug: Schema.optional(Schema.String),
  createdOn: Schema.optional(Schema.NullOr(Schema.String)),
  lastUpdated: Schema.optional(Schema.NullOr(Schema.String))
})
export type Collection = typeof Collection.Type

/** A field of a collection, as `GET /collections/{id}` describes it; `validations` depend on its type. */
export const Field = Schema.Struct({
  id: Schema.String,
  slug: Schema.String,
  displayName: Schema.optional(Schema.String),
  type: Schema.String,
  /** `false` when left out (Webflow's default for a new field). */
  isRequired: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  isEditable: Schema.optional(Schema.Boolean),
  helpText: Schema.optional(Schema.NullOr(Schema.String)),
  validations: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })))
})
export type Field = typeof Field.Type

export const listCollections = (client: ProviderClient.ProviderClient, siteId: string) =>
  Effect.map(
    client.json({ method: "GET", path: path`/sites/${siteId}/collections` }, Schema.Struct({ collections: Schema.Array(Collection) })),
    (r) => r.collections
  )

/** A collection's fields: `GET /collections/{id}`. */
export const collectionFields = (client: ProviderClient.ProviderClient, collectionId: string) =>
  Effect.map(
    client.json({ method: "GET", path: path`/collections/${collectionId}` }, Schema.Struct({ fields: Schema.Array(Field) })),
    (r) => r.fields
  )

/** A collection with its fields, as `GET /collections/{id}` reads it. */
export const CollectionDetails = Schema.Struct({ ...Collection.fields, fields: Schema.optionalWith(Schema.Array(Field), { default: () => [] }) })
export type CollectionDetails = typeof CollectionDetails.Type

export const getCollection = (client: ProviderClient.ProviderClient, collectionId: string) =>
  client.json({ method: "GET", path: path`/collections/${collectionId}` }, CollectionDetails)
