/**
 * @x/sitebuilder: the site-builder component, `sitebuilder/v1` (Webflow Data API v2).
 */
import { Client, Component } from "@x/core"
import { createCollectionItem } from "./actions/createCollectionItem.js"
import { fulfillOrder } from "./actions/fulfillOrder.js"
import { getCollectionItem } from "./actions/getCollectionItem.js"
import { listCollectionItems } from "./actions/listCollectionItems.js"
import { updateCollectionItem } from "./actions/updateCollectionItem.js"
import { connection as declared } from "./connection.js"
// assets
import { deleteAsset } from "./actions/deleteAsset.js"
import { getAsset } from "./actions/getAsset.js"
import { listAssets } from "./actions/listAssets.js"
import { uploadAsset } from "./actions/uploadAsset.js"
// forms and site users
import { deleteUser } from "./actions/deleteUser.js"
import { getFormSubmission } from "./actions/getFormSubmission.js"
import { getUser } from "./actions/getUser.js"
import { inviteUser } from "./actions/inviteUser.js"
import { listFormSubmissions } from "./actions/listFormSubmissions.js"
import { listForms } from "./actions/listForms.js"
import { listUsers } from "./actions/listUsers.js"

export const sitebuilder = Component.make({
  name: "sitebuilder",
  version: 1,
  title: "Site Builder",
  description: "Visual web design and development platform for building responsive websites without code.",
  category: "Developer Tools",
  connection: declared,
  actions: [
    fulfillOrder, getCollectionItem, listCollectionItems, createCollectionItem, updateCollectionItem,
    // forms and site users
    listForms, listFormSubmissions, getFormSubmission, listUsers, getUser, inviteUser, deleteUser,
    // assets
    listAssets, uploadAsset, getAsset, deleteAsset
  ],
  customAction: true
})

/**
 * The typed clients of sitebuilder: `Sitebuilder.client(connection)` (Promise) and `Sitebuilder.effect(connection)`
 * (Effect), one method per action.
 */
export const Sitebuilder = Client.make(sitebuilder)

export { Field } from "./api/collections.js"
export { Item, WrittenItem } from "./api/items.js"
export { Order } from "./api/orders.js"
// forms and site users
export { Form, FormField, FormSubmission } from "./api/forms.js"
export { AccessGroup, User } from "./api/users.js"
/** The connection, with the OAuth2 scopes its actions need. */
export const connection = sitebuilder.connection
export { createCollectionItem, fulfillOrder, getCollectionItem, listCollectionItems, updateCollectionItem }
// forms and site users
export { deleteUser, getFormSubmission, getUser, inviteUser, listForms, listFormSubmissions, listUsers }
// assets
export { Asset, AssetVariant } from "./api/assets.js"
export { deleteAsset, getAsset, listAssets, uploadAsset }
