/** A card's attachments: add (an upload or a link), list, get, delete (recorded as deleteAttachmentFromCard). The download is served beside the router (it streams bytes). */
import * as Attachments from "../attachments.js"
import { HttpError, lookup, notFound, type Route } from "../http.js"
import type { Context } from "./context.js"

export const routes = ({ attachmentMaxBytes, store }: Context): ReadonlyArray<Route> => {
  const { attachments, cards } = store
  return [
    {
      method: "POST",
      path: "/cards/:id/attachments",
      handle: async ({ file, p, path }) => {
        const card = lookup(cards, path["id"]!)
        if (file !== undefined && file.size > attachmentMaxBytes) throw new HttpError(413, "request entity too large")
        const attachment = await Attachments.attach(attachments, store.nextId, card, store.me.id, p, file)
        attachments.set(attachment.id, attachment)
        store.record(card.idBoard, "addAttachmentToCard", {
          attachment: { id: attachment.id, name: attachment.name, url: attachment.url },
          card: store.cardRef(card),
          list: store.listRef(store.lists.get(card.idList)!),
          board: store.boardRef(store.boards.get(card.idBoard)!)
        })
        return Attachments.json(attachment)
      }
    },
    {
      method: "GET",
      path: "/cards/:id/attachments",
      handle: ({ path }) => {
        const card = lookup(cards, path["id"]!)
        return [...attachments.values()].filter((x) => x.idCard === card.id).map(Attachments.json)
      }
    },
    {
      method: "GET",
      path: "/cards/:id/attachments/:idAttachment",
      handle: ({ path }) => {
        const card = lookup(cards, path["id"]!)
        const attachment = lookup(attachments, path["idAttachment"]!)
        if (attachment.idCard !== card.id) throw notFound()
        return Attachments.json(attachment)
      }
    },
    {
      method: "DELETE",
      path: "/cards/:id/attachments/:idAttachment",
      handle: ({ path }) => {
        const card = lookup(cards, path["id"]!)
        const attachment = lookup(attachments, path["idAttachment"]!)
        if (attachment.idCard !== card.id) throw notFound()
        attachments.delete(attachment.id)
        store.record(card.idBoard, "deleteAttachmentFromCard", {
          attachment: { id: attachment.id, name: attachment.name },
          ...store.cardContext(card)
        })
        return { limits: {} }
      }
    }
  ]
}
