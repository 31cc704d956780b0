/**
 * What Webflow's document says a registered script must be: its name 1 to 50 letters and
 * digits (spaces between words, as its example "CMS Slider"), its version a Semantic Version
 * (semver.org's own pattern), an inline script's code 2000 characters at most, a hosted one's
 * Sub-Resource Integrity hash. A module of its own, with no imports, so that the simulator
 * (`@x/sitebuilder/testing`) checks the same rules without loading the component.
 */
export const scriptNamePattern = /^[A-Za-z0-9](?:[A-Za-z0-9 ]{0,48}[A-Za-z0-9])?$/

/** semver.org's pattern of a version: `1.0.0`, `2.1.0-beta.1`, `1.0.0+build.5`. */
export const semverPattern =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/

/** "Inline scripts are limited to 2000 characters." */
export const inlineScriptMaxLength = 2000

/** A Sub-Resource Integrity hash: the algorithm, a dash, the base64 digest (`sha384-J+Yl…`). */
export const integrityHashPattern = /^sha(?:256|384|512)-[A-Za-z0-9+/]+={0,2}$/

/** A site holds 800 registered scripts at most. */
export const registeredScriptsMax = 800

/** A registered script's id, derived from its name as Webflow does: "CMS Slider" is `cms_slider`. */
export const scriptIdOf = (displayName: string) => displayName.trim().toLowerCase().replace(/\s+/g, "_")
