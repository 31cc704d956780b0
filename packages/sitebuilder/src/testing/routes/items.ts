/**
 * CMS items: listed staged (`/items`, every item) or live (`/items/live`, the published
 * versions), filtered by exact `name` or `slug` and sorted; read staged or live; created staged
 * (202) or live; updated staged or live; deleted (204, `collection_item_deleted`) or unpublished
 * (`DELETE …/live`, 204: the live version goes, the staged one stays as a draft,
 * `collection_item_unpublished`); published (`POST …/items/publish`, 202, each
 * `collection_item_published`). `fieldData` is checked as Webflow checks it (`../cms.ts`): an
 * unknown field, a wrong type or a missing required field is a 400 `validation_error` naming each.
 *
 * Many items in one request, up to 100 (the document's limit): created staged
 * (`POST …/items/bulk` `{fieldData: [...]}`, or `POST …/items` `{items}`) or live
 * (`POST …/items/live` `{items}`), 202 `{items}`; updated (`PATCH …/items` or `…/items/live`
 * `{items: [{id, …}]}`, 200 `{items}`); deleted or unpublished (`DELETE …/items` or `…/items/live`
 * `{items: [{id}]}`, 204). A request is taken whole or refused whole: the document gives no
 * per-item error, so each refused item is named in the error's `details` by its place in the
 * request (`items[2].fieldData.slug`, `fieldData[2].slug`), as a single item's fields are named:
 * 400 `validation_error` for a bad field, else 404 for an item not in the collection (or, live,
 * not published), else 409 for a live update of an item not published.
 */
import * as Cms from "../cms.js"
import { accepted, ApiError, invalid, isObjectId, noContent, notFound, paged, type Route } from "../http.js"
import { type Collection, type Item, type LiveItem, objectId, type Store } from "../store.js"

const sortKeys = ["lastPublished", "name", "slug"]
/** "up to 100 items in a request" (the document). */
const bulkLimit = 100

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

  /** What is wrong with a new item (its fieldData checked as Webflow does); `taken`: slugs earlier items of the request take. */
  const newItemProblems = (c: Collection, live: boolean, body: Readonly<Record<string, unknown>>, taken: ReadonlySet<unknown> = new Set()) => {
    const slug = (body["fieldData"] as Record<string, unknown> | undefined)?.["slug"]
    return [
      ...flags(body, live),
      ...Cms.check(c.fields, body["fieldData"], true, exists),
      ...uniqueSlug(c, body["fieldData"]),
      ...(typeof slug === "string" && taken.has(slug) ? [{ param: "fieldData.slug", description: `Unique value is already in database: '${slug}'` }] : [])
    ]
  }
  /** Creates an item (staged, or published too with `live`), its fieldData checked as Webflow does. */
  const create = (c: Collection, live: boolean, body: Readonly<Record<string, unknown>>) => {
    if (Array.isArray(body["items"])) return createMany(c, live, body["items"], (i, param) => `items[${i}].${param}`)
    const details = newItemProblems(c, live, body)
    if (details.length > 0) throw invalid(details)
    return accepted(itemJsonOf(insert(c, live, body)))
  }
  const itemJsonOf = (item: Item) => isLive(item) ? store.liveJson(item) : store.itemJson(item)
  /** Stores a new item that passed its checks, and emits `collection_item_created`. */
  const insert = (c: Collection, live: boolean, body: Readonly<Record<string, unknown>>): Item => {
    const at = new Date().toISOString()
    const fieldData = { ...body["fieldData"] as Record<string, unknown> }
    const item: Item = {
      id: objectId(), collectionId: c.id, createdOn: at, lastUpdated: at, fieldData,
      isDraft: live ? false : body["isDraft"] === true, isArchived: body["isArchived"] === true,
      lastPublished: live ? at : null, live: live ? { fieldData: { ...fieldData }, lastUpdated: at } : undefined
    }
    store.items.set(item.id, item)
    store.emit(c.siteId, "collection_item_created", store.itemPayload(item))
    return item
  }

  /** The list of a bulk body (`items`, `fieldData`): 1 to 100 entries, else 400 naming it. */
  const listOf = (param: string, list: unknown): ReadonlyArray<unknown> => {
    if (!Array.isArray(list) || list.length === 0) throw invalid([{ param, description: "Expected a non-empty array" }])
    if (list.length > bulkLimit) throw invalid([{ param, description: `Must contain at most ${bulkLimit} items` }])
    return list
  }
  const entryOf = (entry: unknown): Readonly<Record<string, unknown>> =>
    typeof entry === "object" && entry !== null && !Array.isArray(entry) ? entry as Record<string, unknown> : {}
  /** Creates every item of a request, or none: each problem named at its item (`named(index, param)`). */
  const createMany = (c: Collection, live: boolean, list: unknown, named: (index: number, param: string) => string, shared: Readonly<Record<string, unknown>> = {}) => {
    const entries = listOf("items", list).map((entry) => ({ ...shared, ...entryOf(entry) }))
    const taken = new Set<unknown>()
    const details = entries.flatMap((entry, i) => {
      const problems = newItemProblems(c, live, entry, taken)
      taken.add((entry["fieldData"] as Record<string, unknown> | undefined)?.["slug"])
      return problems.map((d) => ({ param: named(i, d.param), description: d.description }))
    })
    if (details.length > 0) throw invalid(details)
    return accepted({ items: entries.map((entry) => itemJsonOf(insert(c, live, entry))) })
  }
  /** `POST …/items/bulk`: one `isDraft`/`isArchived` for all, `fieldData` one object or a list (the primary locale only). */
  const createBulk = (c: Collection, body: Readonly<Record<string, unknown>>) => {
    const flagsOnly = { ...(body["isDraft"] === undefined ? {} : { isDraft: body["isDraft"] }), ...(body["isArchived"] === undefined ? {} : { isArchived: body["isArchived"] }) }
    const details = flags(body, false)
    if (details.length > 0) throw invalid(details)
    const list = Array.isArray(body["fieldData"]) ? listOf("fieldData", body["fieldData"]) : [body["fieldData"]]
    // `fieldData.slug` of the i-th item is `fieldData[i].slug` in this body.
    return createMany(c, false, list.map((fieldData) => ({ fieldData })), (i, param) => param.replace(/^fieldData/, `fieldData[${i}]`), flagsOnly)
  }

  /** Many items' problems, each named at its item, and the status Webflow would answer them with. */
  const refuse = (problems: ReadonlyArray<{ readonly status: 400 | 404 | 409; readonly param: string; readonly description: string }>) => {
    if (problems.length === 0) return
    const details = problems.map(({ description, param }) => ({ param, description }))
    if (problems.some((p) => p.status === 400)) throw invalid(details)
    if (problems.some((p) => p.status === 404)) throw new ApiError(404, "item_not_found", "Requested resource not found: Item not found", details)
    throw new ApiError(409, "conflict", "Conflict: Item not published", details)
  }
  /** The items of a `{items: [{id}]}` body that are in the collection (and, `live`, published); 404 naming each that is not. */
  const itemsOf = (c: Collection, body: Readonly<Record<string, unknown>>, extra: (item: Item, entry: Readonly<Record<string, unknown>>, i: number) => ReadonlyArray<{ readonly status: 400 | 404 | 409; readonly param: string; readonly description: string }>) => {
    const entries = listOf("items", body["items"]).map(entryOf)
    const problems = entries.flatMap((entry, i) => {
      const id = entry["id"]
      const item = typeof id === "string" && isObjectId(id) && exists(c.id, id) ? store.items.get(id)! : undefined
      if (item === undefined) return [{ status: 404 as const, param: `items[${i}].id`, description: "Item not found" }]
      return extra(item, entry, i)
    })
    refuse(problems)
    return entries.map((entry) => ({ entry, item: store.items.get(entry["id"] as string)! }))
  }
  const updateMany = (c: Collection, live: boolean, body: Readonly<Record<string, unknown>>) => {
    const found = itemsOf(c, body, (item, entry, i) => [
      ...[...flags(entry, live), ...Cms.check(c.fields, entry["fieldData"], false, exists), ...uniqueSlug(c, entry["fieldData"], item.id)]
        .map((d) => ({ status: 400 as const, param: `items[${i}].${d.param}`, description: d.description })),
      ...(live && !isLive(item) ? [{ status: 409 as const, param: `items[${i}].id`, description: "Item not published" }] : [])
    ])
    return { items: found.map(({ entry, item }) => update(c, item, live, entry)) }
  }
  const deleteMany = (c: Collection, live: boolean, body: Readonly<Record<string, unknown>>) => {
    const found = itemsOf(c, body, (item, _entry, i) =>
      live && !isLive(item) ? [{ status: 404 as const, param: `items[${i}].id`, description: "Live Item not found" }] : [])
    for (const { item } of found) (live ? unpublish : remove)(c, item)
    return noContent()
  }
  /** The item goes, its live version with it (guessed: the document does not say what a published item's live version does). */
  const remove = (c: Collection, item: Item) => {
    store.items.delete(item.id)
    store.emit(c.siteId, "collection_item_deleted", store.itemPayload(item))
  }
  /** "Unpublish a live item from the site and set the isDraft property to true" (the document). */
  const unpublish = (c: Collection, item: Item) => {
    item.live = undefined
    item.isDraft = true
    item.lastUpdated = new Date().toISOString()
    store.emit(c.siteId, "collection_item_unpublished", store.itemPayload(item))
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
      handle: ({ path }) => {
        const { c, item } = itemOf(path)
        remove(c, item)
        return noContent()
      }
    },
    {
      method: "DELETE",
      path: "/collections/:collection_id/items/:item_id/live",
      scope: "cms:write",
      handle: ({ path }) => {
        const { c, item } = liveOf(path) as { c: Collection; item: Item }
        unpublish(c, item)
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
      path: "/collections/:collection_id/items/bulk",
      scope: "cms:write",
      handle: ({ body, path }) => createBulk(store.collection(path["collection_id"]!), body)
    },
    {
      method: "PATCH",
      path: "/collections/:collection_id/items",
      scope: "cms:write",
      handle: ({ body, path }) => updateMany(store.collection(path["collection_id"]!), false, body)
    },
    {
      method: "PATCH",
      path: "/collections/:collection_id/items/live",
      scope: "cms:write",
      handle: ({ body, path }) => updateMany(store.collection(path["collection_id"]!), true, body)
    },
    {
      method: "DELETE",
      path: "/collections/:collection_id/items",
      scope: "cms:write",
      handle: ({ body, path }) => deleteMany(store.collection(path["collection_id"]!), false, body)
    },
    {
      method: "DELETE",
      path: "/collections/:collection_id/items/live",
      scope: "cms:write",
      handle: ({ body, path }) => deleteMany(store.collection(path["collection_id"]!), true, body)
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
