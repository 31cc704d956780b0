/**
 * Comments, which people make in Webflow's Designer or editor (no API call does): a new thread
 * on a page, or a reply to a thread, each emitted as `comment_created` with the payload the
 * document's webhook describes.
 */
import { invalid, notFound } from "./http.js"
import { objectId, type Store } from "./store.js"

/** Someone who comments (or is mentioned): a Webflow user. */
export interface Commenter {
  readonly userId: string
  readonly email: string
  readonly name: string
}

/** A comment: on a page of the site, a new thread, or a reply to `threadId`. */
export interface NewComment {
  readonly pageId: string
  readonly content: string
  /** Replies to this thread (one `comment` made); a new thread otherwise. */
  readonly threadId?: string
  readonly author?: Commenter
  readonly mentionedUsers?: ReadonlyArray<Commenter>
  /** The CMS item whose page it is on. */
  readonly itemId?: string
}

const someone: Commenter = { userId: "5eed000000000000000c0001", email: "ford.prefect@example.com", name: "Ford Prefect" }

/** `comment(siteId, comment)`: the comment stored as its thread's, emitted as `comment_created`; answers the payload. */
export const comment = (store: Store) => {
  /** Each thread's site and page, by thread id. */
  const threads = new Map<string, { readonly siteId: string; readonly pageId: string }>()
  return (siteId: string, made: NewComment) => {
    const site = store.site(siteId)
    const page = store.page(made.pageId)
    if (page.siteId !== site.id) throw notFound("resource_not_found", "Page")
    if (made.content.trim() === "") throw invalid([{ param: "content", description: "Field is required" }])
    const thread = made.threadId === undefined ? undefined : threads.get(made.threadId)
    if (made.threadId !== undefined && (thread === undefined || thread.siteId !== site.id || thread.pageId !== page.id)) {
      throw notFound("resource_not_found", "Comment thread")
    }
    const commentId = objectId()
    const threadId = made.threadId ?? commentId
    threads.set(threadId, { siteId: site.id, pageId: page.id })
    const at = new Date().toISOString()
    const payload = {
      threadId,
      commentId,
      type: made.threadId === undefined ? "new_comment" : "reply",
      siteId: site.id,
      pageId: page.id,
      localeId: null,
      itemId: made.itemId ?? null,
      breakpoint: "main",
      url: `https://webflow.com/design/${site.shortName}?workflow=comment&commentId=${threadId}&pageId=${page.id}`,
      content: made.content,
      isResolved: false,
      author: made.author ?? someone,
      mentionedUsers: made.mentionedUsers ?? [],
      createdOn: at,
      lastUpdated: at
    }
    store.emit(site.id, "comment_created", payload)
    return payload
  }
}
