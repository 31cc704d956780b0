/**
 * CMS items: listed staged (`/items`, every item) or live (`/items/live`, the published
 * versions), filtered by exact `name` or `slug` and sorted; read staged or live; created staged
 * (202) or live; updated staged or live; deleted (204, `collection_item_deleted`) or unpublished
 * (`DELETE …/live`, 204: the live version goes, the staged one stays as a draft,
 * `collection_item_unpublished`); published (`POST …/items/publish`, 202, each
 * `collection_item_published`). `fieldData` is checked as Webflow checks it (`../cms.ts`): an
 * unknown field, a wrong type or a missing required field is a 400 `validation_error` naming each.
 */
import * as Cms from "../cms.js"
import { accepted, ApiError, invalid, isObjectId, noContent, notFound, paged, type Route } from "../http.js"
import { type Collection, type Item, type LiveItem, objectId, type Store } from "../store.js"

const sortKeys = ["lastPublished", "name", "slug"]

export const routes = (store: Store): ReadonlyArray<Route> => {
  const exists = (collectionId: string, itemId: string) => store.items.get(itemId)?.collectionId === collectionId
  const isLive = (i: Item): i is Item & { live: LiveItem } => i.live !== undefined

  /** A collection's items, staged or live, filtered by exact name or slug and sorted as asked. */
  const listed = (c: Collection, live: boolean, q: URLSearchParams): ReadonlyArray<Item> => {
    const sortBy = q.get("sortBy")
    const sortOrder = q.get("sortOrder")
    if (sortBy !== null && !sortKeys.includes(sortBy)) throw invalid([{ param: "sortBy", description: `must be one of ${sortKeys.join(", ")}` }])
    if (sortOrder !== null && sortOrder !== "asc" && sortOrder !== "desc") throw invalid([{ param: "sortOrder", description: "must be one of asc, desc" }])
    const [name, slug] = [q.get("name"), q.get("slug")]
    const fieldsOf = (i: Item) => live ? i.live!.fieldData : i.fieldData
    const all = [...store.items.values()].filter((i) =>
      i.collectionId === c.id && (!live || isLive(i)) &&
      (name === null || fieldsOf(i)["name"] === name) && (slug === null || fieldsOf(i)["slug"] === slug))
    if (sortBy === null) return all
    const key = (i: Item) => String(sortBy === "lastPublished" ? i.lastPublished : fieldsOf(i)[sortBy])
    const direction = sortOrder === "desc" ? -1 : 1
    return all.sort((a, b) => direction * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
  }

  const flags = (body: Readonly<Record<string, unknown>>, live: boolean): ReadonlyArray<Cms.Detail> => [
    ...(["isDraft", "isArchived"] as const).filter((flag) => body[flag] !== undefined && typeof body[flag] !== "boolean")
      .map((flag) => ({ param: flag, description: "Expected a boolean" })),
    ...(live && body["isDraft"] === true ? [{ param: "isDraft", description: "A live item cannot be a draft" }] : [])
  ]
  const uniqueSlug = (c: Collection, fieldData: unknown, itself?: string): ReadonlyArray<Cms.Detail> => {
    const slug = (fieldData as Record<string, unknown> | undefined)?.["slug"]
    const taken = typeof slug === "string" && [...store.items.values()].some((i) => i.collectionId === c.id && i.id !== itself && i.fieldData["slug"] === slug)
    return taken ? [{ param: "fieldData.slug", description: `Unique value is already in database: '${slug}'` }] : []
  }

  /** Creates an item (staged, or published too with `live`), its fieldData checked as Webflow does. */
  const create = (c: Collection, live: boolean, body: Readonly<Record<string, unknown>>) => {
    const details = [...flags(body, live), ...Cms.check(c.fields, body["fieldData"], true, exists), ...uniqueSlug(c, body["fieldData"])]
    if (details.length > 0) throw invalid(details)
    const at = new Date().toISOString()
    const fieldData = { ...body["fieldData"] as Record<string, unknown> }
    const item: Item = {
      id: objectId(), collectionId: c.id, createdOn: at, lastUpdated: at, fieldData,
      isDraft: live ? false : body["isDraft"] === true, isArchived: body["isArchived"] === true,
      lastPublished: live ? at : null, live: live ? { fieldData: { ...fieldData }, lastUpdated: at } : undefined
    }
    store.items.set(item.id, item)
    store.emit(c.siteId, "collection_item_created", store.itemPayload(item))
    return accepted(live ? store.liveJson(item as Item & { live: LiveItem }) : store.itemJson(item))
  }

  /** Updates an item's given fields (null clears one); `live` changes the published version too, for an item that is live. */
  const update = (c: Collection, item: Item, live: boolean, body: Readonly<Record<string, unknown>>) => {
    const details = [...flags(body, live), ...Cms.check(c.fields, body["fieldData"], false, exists), ...uniqueSlug(c, body["fieldData"], item.id)]
    if (details.length > 0) throw invalid(details)
    if (live && !isLive(item)) throw new ApiError(409, "conflict", "Conflict: Item not published")
    for (const [slug, value] of Object.entries((body["fieldData"] ?? {}) as Record<string, unknown>)) {
      if (value === null) delete item.fieldData[slug]
      else item.fieldData[slug] = value
    }
    if (typeof body["isDraft"] === "boolean") item.isDraft = body["isDraft"]
    if (typeof body["isArchived"] === "boolean") item.isArchived = body["isArchived"]
    item.lastUpdated = new Date().toISOString()
    if (live) {
      item.live = { fieldData: { ...item.fieldData }, lastUpdated: item.lastUpdated }
      item.lastPublished = item.lastUpdated
    }
    store.emit(c.siteId, "collection_item_changed", store.itemPayload(item))
    return live ? store.liveJson(item as Item & { live: LiveItem }) : store.itemJson(item)
  }

  const itemOf = (path: Readonly<Record<string, string>>) => {
    const c = store.collection(path["collection_id"]!)
    return { c, item: store.item(c, path["item_id"]!) }
  }
  /** The published version of an item: 404 while it is not published. */
  const liveOf = (path: Readonly<Record<string, string>>) => {
    const { c, item } = itemOf(path)
    if (!isLive(item)) throw notFound("item_not_found", "Live Item")
    return { c, item }
  }

  /** Copies each staged item to live; an id that is no item of the collection is reported, not fatal, as Webflow does. */
  const publish = (c: Collection, body: Readonly<Record<string, unknown>>) => {
    const ids = body["itemIds"]
    if (!Array.isArray(ids) || ids.length === 0) throw invalid([{ param: "itemIds", description: "Expected a non-empty array of item ids" }])
    const bad = ids.filter((id) => typeof id !== "string" || !isObjectId(id))
    if (bad.length > 0) throw invalid([{ param: "itemIds", description: `Invalid item ids: ${bad.map(String).join(", ")}` }])
    const at = new Date().toISOString()
    const publishedItemIds: Array<string> = []
    const errors: Array<string> = []
    for (const id of ids as ReadonlyArray<string>) {
      const item = store.items.get(id)
      if (item === undefined || item.collectionId !== c.id) {
        errors.push(`Staging item ID ${id} not found.`)
        continue
      }
      item.live = { fieldData: structuredClone(item.fieldData), lastUpdated: at }
      item.lastPublished = at
      item.isDraft = false
      publishedItemIds.push(id)
      store.emit(c.siteId, "collection_item_published", store.itemPayload(item))
    }
    return accepted({ publishedItemIds, errors })
  }

  return [
    {
      method: "GET",
      path: "/collections/:collection_id/items",
      scope: "cms:read",
      handle: ({ path, query }) => paged("items", listed(store.collection(path["collection_id"]!), false, query), query, store.itemJson)
    },
    {
      method: "GET",
      path: "/collections/:collection_id/items/live",
      scope: "cms:read",
      handle: ({ path, query }) =>
        paged("items", listed(store.collection(path["collection_id"]!), true, query), query, (i) => store.liveJson(i as Item & { live: LiveItem }))
    },
    {
      method: "GET",
      path: "/collections/:collection_id/items/:item_id",
      scope: "cms:read",
      handle: ({ path }) => store.itemJson(itemOf(path).item)
    },
    {
      method: "GET",
      path: "/collections/:collection_id/items/:item_id/live",
      scope: "cms:read",
      handle: ({ path }) => store.liveJson(liveOf(path).item)
    },
    {
      method: "DELETE",
      path: "/collections/:collection_id/items/:item_id",
      scope: "cms:write",
      // The item goes, its live version with it (guessed: the document does not say what a published item's live version does).
      handle: ({ path }) => {
        const { c, item } = itemOf(path)
        store.items.delete(item.id)
        store.emit(c.siteId, "collection_item_deleted", store.itemPayload(item))
        return noContent()
      }
    },
    {
      method: "DELETE",
      path: "/collections/:collection_id/items/:item_id/live",
      scope: "cms:write",
      // "Unpublish a live item from the site and set the isDraft property to true" (the document).
      handle: ({ path }) => {
        const { c, item } = liveOf(path) as { c: Collection; item: Item }
        item.live = undefined
        item.isDraft = true
        item.lastUpdated = new Date().toISOString()
        store.emit(c.siteId, "collection_item_unpublished", store.itemPayload(item))
        return noContent()
      }
    },
    {
      method: "POST",
      path: "/collections/:collection_id/items/publish",
      scope: "cms:write",
      handle: ({ body, path }) => publish(store.collection(path["collection_id"]!), body)
    },
    {
      method: "POST",
      path: "/collections/:collection_id/items",
      scope: "cms:write",
      handle: ({ body, path }) => create(store.collection(path["collection_id"]!), false, body)
    },
    {
      method: "POST",
      path: "/collections/:collection_id/items/live",
      scope: "cms:write",
      handle: ({ body, path }) => create(store.collection(path["collection_id"]!), true, body)
    },
    {
      method: "PATCH",
      path: "/collections/:collection_id/items/:item_id",
      scope: "cms:write",
      handle: ({ body, path }) => {
        const { c, item } = itemOf(path)
        return update(c, item, false, body)
      }
    },
    {
      method: "PATCH",
      path: "/collections/:collection_id/items/:item_id/live",
      scope: "cms:write",
      handle: ({ body, path }) => {
        const { c, item } = itemOf(path)
        return update(c, item, true, body)
      }
    }
  ]
}
