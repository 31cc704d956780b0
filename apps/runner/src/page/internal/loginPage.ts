/**
 * The runs page's login form (`GET /runs/login`): plain HTML with no data in it, posting the
 * token to `/runs/login`, which sets the cookie. Its one message is a fixed sentence.
 *
 * @internal
 */

/** The form; `refused` adds the sentence for a token that did not match. */
export const loginPage = (refused: boolean): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>x-runner runs: sign in</title>
<link rel="stylesheet" href="/runs/assets/page.css">
</head>
<body>
<main class="login">
<h1>x-runner runs</h1>
<form method="post" action="/runs/login">
<p><label for="token">The runs page's token (XRUNNER_UI_TOKEN, or the file of --ui-token-file)</label></p>
<p><input id="token" name="token" type="password" autocomplete="current-password" required autofocus></p>
${refused ? `<p role="alert" data-testid="login-refused">That is not the token.</p>\n` : ""}<p><button type="submit">Sign in</button></p>
</form>
</main>
</body>
</html>
`
