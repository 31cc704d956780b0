import { Action, Property } from "@x/core"
import * as Pages from "../api/pages.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

const text = (title: string, description?: string) => Property.string({ title, minLength: 1, maxLength: 500, ...(description === undefined ? {} : { description }) })

export const updatePageMetadata = Action.make({
  name: "updatePageMetadata",
  title: "Update Page Metadata",
  impact: "write", idempotent: true,
  description: "Changes a page's title, slug, SEO title and description, and Open Graph title and description; only what is given is changed.",
  props: {
    siteId: Props.siteId(false),
    pageId: Props.pageId,
    title: text("Title"),
    slug: Property.string({ title: "Slug", pattern: /^[a-z0-9][a-z0-9-]*$/, patternMessage: "must be lowercase letters, digits and hyphens", maxLength: 256 }),
    seoTitle: text("SEO title", "The title search engines show."),
    seoDescription: text("SEO description", "The description search engines show."),
    openGraphTitle: text("Open Graph title", "The title of the page's link previews."),
    openGraphTitleCopied: Property.boolean({ title: "Open Graph title copies the SEO title" }),
    openGraphDescription: text("Open Graph description", "The description of the page's link previews."),
    openGraphDescriptionCopied: Property.boolean({ title: "Open Graph description copies the SEO description" })
  },
  validate: (p) => [
    ...(p.openGraphTitleCopied === true && p.openGraphTitle !== undefined
      ? [{ path: "openGraphTitle", message: "not with openGraphTitleCopied: the Open Graph title is then the SEO title" }]
      : []),
    ...(p.openGraphDescriptionCopied === true && p.openGraphDescription !== undefined
      ? [{ path: "openGraphDescription", message: "not with openGraphDescriptionCopied: the Open Graph description is then the SEO description" }]
      : []),
    ...([p.title, p.slug, p.seoTitle, p.seoDescription, p.openGraphTitle, p.openGraphTitleCopied, p.openGraphDescription, p.openGraphDescriptionCopied]
        .every((v) => v === undefined)
      ? [{ path: "title", message: "give at least one thing to change" }]
      : [])
  ],
  output: Pages.Page,
  scopes: [Scopes.pagesWrite, Scopes.sitesRead],
  run: (p, { client }) =>
    Pages.updatePage(client, p.pageId, {
      title: p.title,
      slug: p.slug,
      seo: { title: p.seoTitle, description: p.seoDescription },
      openGraph: {
        title: p.openGraphTitle,
        titleCopied: p.openGraphTitleCopied,
        description: p.openGraphDescription,
        descriptionCopied: p.openGraphDescriptionCopied
      }
    })
})
