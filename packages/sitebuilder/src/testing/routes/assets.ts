/**
 * Assets: a site's list, one asset, its deletion, and the first step of an upload (the asset
 * declared, answered with the presigned POST form of `../assets.ts`). An asset is listed and
 * found once its file is uploaded.
 */
import { contentTypeOf } from "../assets.js"
import { invalid, isObjectId, noContent, notFound, objectIdOf, paged, textOf, type Route } from "../http.js"
import { objectId, type Store } from "../store.js"
import type { Asset } from "../assets.js"

export const routes = (store: Store): ReadonlyArray<Route> => {
  const { assets } = store.assetStore
  const assetJson = (a: Asset) => ({
    id: a.id,
    contentType: a.contentType,
    size: a.bytes?.length ?? 0,
    siteId: a.siteId,
    hostedUrl: store.assetStore.hostedUrl(a),
    originalFileName: a.fileName,
    displayName: `${a.id}_${a.fileName}`,
    lastUpdated: a.lastUpdated,
    createdOn: a.createdOn,
    variants: [],
    altText: null
  })
  const asset = (id: string) => {
    const found = assets.get(objectIdOf(id, "asset_id"))
    if (found?.bytes === undefined) throw notFound("resource_not_found", "Asset")
    return found
  }
  return [
    {
      method: "GET",
      path: "/sites/:site_id/assets",
      scope: "assets:read",
      handle: ({ path, query }) => {
        const site = store.site(path["site_id"]!)
        return paged("assets", [...assets.values()].filter((a) => a.siteId === site.id && a.bytes !== undefined), query, assetJson)
      }
    },
    {
      method: "POST",
      path: "/sites/:site_id/assets",
      scope: "assets:write",
      handle: ({ body, path }) => {
        const site = store.site(path["site_id"]!)
        const fileName = textOf(body, "fileName")
        const fileHash = textOf(body, "fileHash")
        const parentFolder = body["parentFolder"]
        const problems = [
          ...fileName.length >= 100 ? [{ param: "fileName", description: "File names must be less than 100 characters" }] : [],
          ...!/^[0-9a-f]{32}$/i.test(fileHash) ? [{ param: "fileHash", description: "must be the MD5 hash of the file (32 hexadecimal digits)" }] : [],
          ...parentFolder !== undefined && (typeof parentFolder !== "string" || !isObjectId(parentFolder))
            ? [{ param: "parentFolder", description: "invalid id" }] : []
        ]
        if (problems.length > 0) throw invalid(problems)
        const id = objectId()
        const at = new Date().toISOString()
        const created: Asset = {
          id, siteId: site.id, fileName, fileHash: fileHash.toLowerCase(), contentType: contentTypeOf(fileName),
          parentFolder: (parentFolder as string | undefined) ?? null, createdOn: at, lastUpdated: at, key: `${site.id}/${id}_${fileName}`, bytes: undefined
        }
        assets.set(id, created)
        const hostedUrl = store.assetStore.hostedUrl(created)
        return {
          ...store.assetStore.uploadForm(created),
          contentType: created.contentType,
          id,
          // The document's `parentFolder` is a string (`default: null`): left out when there is none.
          ...created.parentFolder === null ? {} : { parentFolder: created.parentFolder },
          assetUrl: hostedUrl,
          hostedUrl,
          originalFileName: fileName,
          createdOn: at,
          lastUpdated: at
        }
      }
    },
    {
      method: "GET",
      path: "/assets/:asset_id",
      scope: "assets:read",
      handle: ({ path }) => assetJson(asset(path["asset_id"]!))
    },
    {
      method: "DELETE",
      path: "/assets/:asset_id",
      scope: "assets:write",
      handle: ({ path }) => {
        assets.delete(asset(path["asset_id"]!).id)
        return noContent()
      }
    }
  ]
}
