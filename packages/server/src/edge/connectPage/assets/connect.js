// The hosted connect page (served as /connect/assets/connect.js, no build step). One script for
// three pages, told apart by the JSON data block the server writes into each:
// - "connect": GET /connect?token=… — pick a connector and a method, enter fields, link or authorize;
// - "error": the page for a link that cannot be used (the server already rendered it);
// - "result": the OAuth2 callback's answer (connected or not), in a popup or as the whole window.
//
// Messages to the embedding application (postMessage):
// - switchyard:connected {account_id, connector_key} goes only to origins the project trusts:
//   to the parent frame at the project's frame origins (the only origins CSP lets frame the
//   page), to the opener at those and at the origin of the session's redirect_url (which
//   receives account_id anyway). Never to "*".
// - switchyard:error {message} and switchyard:closed {} carry nothing the holder of the link
//   could not learn by calling the API with it: the opener receives them at any origin ("*"),
//   the parent frame at the project's frame origins.
"use strict"
;(function() {
  const data = JSON.parse(document.getElementById("switchyard-connect-data").textContent)
  const main = document.getElementById("connect")
  const live = document.getElementById("connect-live")
  const frameOrigins = Array.isArray(data.frameOrigins) ? data.frameOrigins.filter((o) => typeof o === "string") : []
  const framed = window.parent !== window
  const opener = window.opener && window.opener !== window ? window.opener : null
  const RETURN_KEY = "switchyard:connect-url"
  const AWAITING = "data-switchyard-awaiting-oauth"

  let finished = false
  let leaving = false
  /** The OAuth2 popup a framed page opened, while it is open. */
  let activePopup = null

  // ---- messages to the embedding application

  const webOrigin = (url) => {
    try {
      const parsed = new URL(url)
      return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : null
    } catch {
      return null
    }
  }

  const unique = (items) => [...new Set(items.filter((item) => typeof item === "string" && item.length > 0))]

  const post = (target, message, origins) => {
    for (const origin of origins) {
      try {
        target.postMessage(message, origin)
      } catch {
        // a closed or navigated window: nothing to tell
      }
    }
  }

  /** Tells the parent frame and the opener, each at the origins the policy above allows. */
  const tell = (message, redirectUrl) => {
    const carriesAccount = message.type === "switchyard:connected"
    if (framed) post(window.parent, message, frameOrigins)
    if (opener !== null) {
      post(opener, message, carriesAccount ? unique([...frameOrigins, webOrigin(redirectUrl)]) : ["*"])
    }
  }

  window.addEventListener("pagehide", () => {
    if (!finished && !leaving && opener !== null) post(opener, { type: "switchyard:closed" }, ["*"])
  })

  // ---- building the page

  const el = (tag, attributes, ...children) => {
    const node = document.createElement(tag)
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue
      if (name === "text") node.textContent = value
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value)
      else node.setAttribute(name, value === true ? "" : String(value))
    }
    for (const child of children) {
      if (child !== null && child !== undefined && child !== false) {
        node.append(typeof child === "string" ? document.createTextNode(child) : child)
      }
    }
    return node
  }

  const announce = (text) => {
    live.textContent = text
  }

  /** Replaces the screen and moves focus to its heading, so a screen reader reads where the user is. */
  const show = (...nodes) => {
    main.replaceChildren(...nodes)
    const heading = main.querySelector("h1")
    if (heading !== null) {
      heading.setAttribute("tabindex", "-1")
      heading.focus()
    }
  }

  const button = (label, kind, onclick, extra) =>
    el("button", { type: "button", class: `button ${kind}`, onclick, ...(extra || {}) }, label)

  const iconFor = (connector) => {
    let src = null
    try {
      const given = new URL(connector.icon_url, document.baseURI)
      // only this server's monogram: never a third-party request from the page
      if (given.origin === location.origin) src = given
    } catch {
      src = null
    }
    if (src === null) src = new URL(`connect/icons/${encodeURIComponent(connector.key)}.svg`, document.baseURI)
    src.searchParams.set("name", connector.name)
    return el("img", { class: "icon", src: src.href, alt: "", width: 44, height: 44 })
  }

  /**
   * A profile's label: secondary to the provider's name, which is what the end user knows
   * (not shown when it only repeats the name).
   */
  const profileLabel = (connector) => {
    const label = connector && typeof connector.profile_label === "string" ? connector.profile_label.trim() : ""
    return label === "" || label.toLowerCase() === String(connector.name).trim().toLowerCase() ? null : label
  }

  const header = (connector, title, subtitle) =>
    el(
      "div",
      { class: "header" },
      connector ? iconFor(connector) : null,
      el(
        "div",
        {},
        el("h1", { text: title }),
        profileLabel(connector) ? el("p", { class: "profile", text: profileLabel(connector) }) : null,
        subtitle ? el("p", { class: "method", text: subtitle }) : null
      )
    )

  // ---- the API (same origin; the token is the credential)

  const call = async (path, body) => {
    let response
    try {
      response = await fetch(new URL(path, document.baseURI), {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        cache: "no-store",
        credentials: "same-origin",
        referrerPolicy: "no-referrer"
      })
    } catch {
      return { ok: false, status: 0, body: null }
    }
    let json = null
    try {
      json = await response.json()
    } catch {
      json = null
    }
    return { ok: response.ok, status: response.status, body: json }
  }

  const messageOf = (answer) => {
    if (answer.status === 0) return "The server could not be reached. Check the connection and try again."
    const message = answer.body && typeof answer.body.message === "string" ? answer.body.message : null
    return message || `Something went wrong (HTTP ${answer.status}). Try again.`
  }

  // ---- screens shared by every mode

  const closeWindow = () => {
    if (opener !== null && !framed) window.close()
  }

  const cancel = () => {
    finished = true
    if (activePopup !== null && !activePopup.closed) activePopup.close()
    tell({ type: "switchyard:closed" })
    show(
      el("h1", { text: "No account was connected" }),
      el("p", { text: "You can close this window." })
    )
    closeWindow()
  }

  const closeButton = () =>
    button("Close", "secondary", () => {
      tell({ type: "switchyard:closed" })
      closeWindow()
    })

  /** A link that cannot be used (401/410), or nothing it could link. */
  const sessionProblem = (title, text, message) => {
    finished = true
    show(
      el("h1", { text: title }),
      el("div", { class: "alert", role: "alert" }, el("p", { text })),
      opener !== null || framed ? el("div", { class: "actions" }, closeButton()) : null
    )
    tell({ type: "switchyard:error", message })
  }

  const answerProblem = (answer) =>
    answer.status === 401
      ? sessionProblem(
        "This link is not valid",
        "The link is not a connect link this server issued. Ask the application that sent you here for a new link.",
        messageOf(answer)
      )
      : sessionProblem(
        "This link can no longer be used",
        "It has expired or was already used. Ask the application that sent you here for a new link.",
        messageOf(answer)
      )

  const safeRedirect = (url) => (webOrigin(url) === null ? null : url)

  /** Linked: the success screen, the message, then the session's redirect_url. */
  const connected = (connector, linked) => {
    finished = true
    try {
      sessionStorage.removeItem(RETURN_KEY)
    } catch {
      // storage unavailable: nothing kept
    }
    const redirect = safeRedirect(linked.redirect_url)
    const name = connector ? connector.name : null
    show(
      header(connector, "Connected"),
      el("p", { class: "success", text: name ? `Your ${name} account is connected.` : "Your account is connected." }),
      redirect
        ? el("p", { class: "progress", role: "status", text: "Taking you back to the application…" })
        : el("div", { class: "actions" }, closeButton())
    )
    announce("Account connected")
    tell({ type: "switchyard:connected", account_id: linked.account_id, connector_key: linked.connector_key }, redirect)
    if (redirect) {
      leaving = true
      location.assign(redirect)
    }
  }

  // ---- connect mode

  const token = new URLSearchParams(location.search).get("token")
  let session = null

  const picker = (connectors) => {
    const list = el("ul", { class: "choices" })
    for (const connector of connectors) {
      const categories = (connector.categories || []).map((c) => String(c).toUpperCase()).join(", ")
      list.append(el(
        "li",
        {},
        el(
          "button",
          { type: "button", class: "choice", onclick: () => chooseConnector(connector, connectors) },
          iconFor(connector),
          el(
            "span",
            {},
            el("span", { class: "name", text: connector.name }),
            profileLabel(connector) ? el("span", { class: "profile", text: profileLabel(connector) }) : null,
            categories ? el("span", { class: "categories", text: categories }) : null
          )
        )
      ))
    }
    show(
      el("h1", { text: "Connect an account" }),
      el("p", { class: "lead", text: "Choose the system you use." }),
      list,
      el("div", { class: "actions" }, button("Cancel", "secondary", cancel))
    )
  }

  const chooseConnector = (connector, connectors) => {
    const back = connectors.length > 1 ? () => picker(connectors) : null
    const methods = connector.authentication || []
    if (methods.length === 0) {
      sessionProblem(
        `${connector.name} cannot be connected here`,
        "It offers no way to connect from this page.",
        `${connector.name} offers no way to connect`
      )
    } else if (methods.length === 1) {
      methodForm(connector, methods[0], back)
    } else {
      const list = el("ul", { class: "choices" })
      for (const method of methods) {
        list.append(el(
          "li",
          {},
          el(
            "button",
            { type: "button", class: "choice", onclick: () => methodForm(connector, method, () => chooseConnector(connector, connectors)) },
            el("span", { class: "name", text: method.label || method.name })
          )
        ))
      }
      show(
        header(connector, `Connect ${connector.name}`, "Choose how to connect."),
        list,
        el("div", { class: "actions" }, back ? button("Back", "secondary", back) : null, button("Cancel", "secondary", cancel))
      )
    }
  }

  const inputType = (field) => {
    if (field.secret || field.type === "password") return "password"
    return ["text", "number", "url", "email"].includes(field.type) ? field.type : "text"
  }

  const methodForm = (connector, method, back) => {
    const oauth = method.type === "oauth2"
    const fields = method.fields || []
    const summary = el("div", { class: "alert", role: "alert", id: "connect-summary", tabindex: "-1", hidden: true })
    const rows = fields.map((field, index) => {
      const id = `field-${index}`
      const hint = field.description ? el("p", { class: "hint", id: `${id}-hint`, text: field.description }) : null
      const error = el("p", { class: "field-error", id: `${id}-error`, hidden: true })
      const input = el("input", {
        id,
        name: field.key,
        type: inputType(field),
        required: field.required === true,
        placeholder: field.placeholder || null,
        autocomplete: "off",
        spellcheck: "false",
        autocapitalize: "none",
        "aria-describedby": hint ? hint.id : null
      })
      const label = el("label", { for: id }, field.label || field.key, field.required ? null : el("span", { class: "hint" }, " (optional)"))
      const row = { field, input, error, hint }
      input.addEventListener("input", () => {
        if (!error.hidden && input.value.trim() !== "") setFieldError(row, null)
      })
      return { ...row, node: el("div", { class: "field" }, label, hint, input, error) }
    })
    const submitLabel = oauth ? `Authorize with ${connector.name}` : "Connect"
    const submit = el("button", { type: "submit", class: "button primary" }, submitLabel)
    const backButton = back ? button("Back", "secondary", back) : null
    const cancelButton = button("Cancel", "secondary", cancel)
    const form = el("form", { novalidate: true, "aria-labelledby": "connect-title" }, ...rows.map((row) => row.node))
    form.append(el("div", { class: "actions" }, submit, backButton, cancelButton))

    const busy = (text) => {
      form.setAttribute("aria-busy", text ? "true" : "false")
      submit.disabled = Boolean(text)
      if (backButton) backButton.disabled = Boolean(text)
      submit.replaceChildren(...(text ? [el("span", { class: "spinner", "aria-hidden": "true" }), text] : [submitLabel]))
      if (text) announce(text)
    }

    const showSummary = (lines) => {
      summary.replaceChildren(...lines.map((line) => el("p", { text: line })))
      summary.hidden = false
      summary.focus()
    }

    const refused = (answer) => {
      busy(null)
      if (answer.status === 401 || answer.status === 410) return answerProblem(answer)
      // the server's message says what was refused and why (a provider's refusal included)
      showSummary([messageOf(answer)])
      tell({ type: "switchyard:error", message: messageOf(answer) })
    }

    const request = (values) => ({
      token,
      connector_key: connector.key,
      connector_profile_id: connector.connector_profile_id,
      auth_method: method.name,
      ...values
    })

    const link = async (credentials) => {
      busy(`Checking with ${connector.name}…`)
      cancelButton.disabled = true
      const answer = await call("connect_sessions/link", request({ credentials }))
      cancelButton.disabled = false
      if (answer.ok) connected(connector, answer.body)
      else refused(answer)
    }

    const authorize = async (credentials, popup) => {
      busy(`Opening ${connector.name}…`)
      const answer = await call("connect_sessions/oauth2/authorize", request(fields.length > 0 ? { credentials } : {}))
      const url = answer.ok && answer.body ? safeRedirect(answer.body.authorization_url) : null
      if (url === null) {
        if (popup) popup.close()
        return answer.ok ? refused({ status: 500, body: { message: "The server gave no authorization address." } }) : refused(answer)
      }
      if (popup === null) {
        try {
          sessionStorage.setItem(RETURN_KEY, location.href)
        } catch {
          // no way back after an error: the user starts again from the application
        }
        leaving = true
        location.assign(url)
        return
      }
      awaitPopup(popup, connector, busy, showSummary)
      popup.location.href = url
      busy(`Waiting for ${connector.name}…`)
    }

    form.addEventListener("submit", (event) => {
      event.preventDefault()
      if (submit.disabled) return
      summary.hidden = true
      let firstInvalid = null
      const credentials = {}
      for (const row of rows) {
        const value = row.input.value.trim()
        let problem = null
        if (row.field.required && value === "") problem = `Enter ${row.field.label || row.field.key}.`
        else if (value !== "" && row.input.validity && row.input.validity.typeMismatch) {
          problem = `Enter a valid ${row.input.type === "email" ? "email address" : "URL"}.`
        }
        setFieldError(row, problem)
        if (problem && firstInvalid === null) firstInvalid = row.input
        if (value !== "") credentials[row.field.key] = value
      }
      if (firstInvalid !== null) {
        announce("Some fields need attention.")
        firstInvalid.focus()
        return
      }
      if (!oauth) return void link(credentials)
      // Consent pages refuse to be framed: a framed page opens a popup, and must do so now,
      // within the click (Safari blocks a window opened after an await).
      let popup = null
      if (framed) {
        popup = window.open("", "switchyard-oauth", "popup=yes,width=520,height=720")
        if (!popup) {
          showSummary([`The browser blocked the ${connector.name} window. Allow pop-ups for this page and try again.`])
          return
        }
        try {
          popup.document.title = `Connecting ${connector.name}`
          popup.document.body.textContent = `Opening ${connector.name}…`
        } catch {
          // not scriptable: it shows a blank page until the provider loads
        }
      }
      void authorize(credentials, popup)
    })

    const title = header(connector, `Connect ${connector.name}`, method.label || null)
    title.querySelector("h1").id = "connect-title"
    show(title, summary, form)
  }

  const setFieldError = (row, problem) => {
    const described = [row.hint ? row.hint.id : null, problem ? row.error.id : null].filter(Boolean).join(" ")
    if (described) row.input.setAttribute("aria-describedby", described)
    else row.input.removeAttribute("aria-describedby")
    row.error.textContent = problem || ""
    row.error.hidden = !problem
    if (problem) row.input.setAttribute("aria-invalid", "true")
    else row.input.removeAttribute("aria-invalid")
  }

  /** The framed flow: the callback page in the popup hands its result back here. */
  const awaitPopup = (popup, connector, busy, showSummary) => {
    document.documentElement.setAttribute(AWAITING, "")
    activePopup = popup
    let done = false
    const stop = () => {
      done = true
      activePopup = null
      document.documentElement.removeAttribute(AWAITING)
      window.removeEventListener("message", onMessage)
      clearInterval(watch)
    }
    const onMessage = (event) => {
      if (done || event.source !== popup || event.origin !== location.origin) return
      const message = event.data
      if (!message || message.type !== "switchyard:oauth-result" || !message.result) return
      stop()
      try {
        popup.postMessage({ type: "switchyard:oauth-received" }, location.origin)
      } catch {
        popup.close()
      }
      const result = message.result
      if (result.status === "connected") {
        connected(connector, result)
      } else {
        busy(null)
        showSummary([String(result.message || "The account was not connected.")])
        tell({ type: "switchyard:error", message: String(result.message || "The account was not connected.") })
      }
    }
    window.addEventListener("message", onMessage)
    // the user may close the popup instead of answering: then the form is usable again
    const watch = setInterval(() => {
      if (done || !popup.closed) return
      stop()
      busy(null)
      showSummary([`The ${connector.name} window was closed before the account was connected.`])
    }, 500)
  }

  const startConnect = async () => {
    if (!token) {
      return sessionProblem(
        "This link is incomplete",
        "The link has no connect token. Ask the application that sent you here for a new link.",
        "The link has no connect token"
      )
    }
    const answer = await call("connect_sessions/authenticate", { token })
    if (answer.status === 401 || answer.status === 410) return answerProblem(answer)
    if (!answer.ok || !answer.body || !Array.isArray(answer.body.connectors)) {
      show(
        el("h1", { text: "The page could not load" }),
        el("div", { class: "alert", role: "alert" }, el("p", { text: messageOf(answer) })),
        el("div", { class: "actions" }, button("Try again", "primary", () => location.reload()), button("Cancel", "secondary", cancel))
      )
      return
    }
    session = answer.body
    const connectors = session.connectors
    if (connectors.length === 0) {
      sessionProblem(
        "Nothing to connect",
        "No system can be connected with this link. Ask the application that sent you here.",
        "No connector can be linked with this session"
      )
    } else if (connectors.length === 1) {
      chooseConnector(connectors[0], connectors)
    } else {
      picker(connectors)
    }
  }

  // ---- result mode (the OAuth2 callback)

  /** The framed connect page that opened this popup and waits for the result, if that is where we are. */
  const waitingOpener = () => {
    try {
      return opener !== null && opener.location.origin === location.origin &&
          opener.document.documentElement.hasAttribute(AWAITING)
        ? opener
        : null
    } catch {
      return null
    }
  }

  const showResult = (result) => {
    finished = true
    const waiting = waitingOpener()
    if (waiting !== null) {
      window.addEventListener("message", (event) => {
        if (event.source === waiting && event.origin === location.origin && event.data &&
            event.data.type === "switchyard:oauth-received") window.close()
      })
      waiting.postMessage({ type: "switchyard:oauth-result", result }, location.origin)
      show(el("h1", { text: "You can close this window" }))
      return
    }
    if (result.status === "connected") return connected(null, result)
    let retry = null
    try {
      retry = sessionStorage.getItem(RETURN_KEY)
    } catch {
      retry = null
    }
    const back = retry && webOrigin(retry) === location.origin ? retry : null
    show(
      el("h1", { text: "The account was not connected" }),
      el("div", { class: "alert", role: "alert" }, el("p", { text: String(result.message || "Authorization failed.") })),
      el(
        "div",
        { class: "actions" },
        back ? el("a", { class: "button primary", href: back }, "Try again") : null,
        opener !== null || framed ? closeButton() : null
      )
    )
    tell({ type: "switchyard:error", message: String(result.message || "Authorization failed.") })
  }

  // ---- error mode (the server's page for a link that cannot be used)

  const showLinkError = () => {
    finished = true
    const title = main.querySelector("h1")
    if (title !== null) title.focus()
    const actions = main.querySelector("[data-actions]")
    if (actions !== null && (opener !== null || framed)) actions.append(closeButton())
    tell({ type: "switchyard:error", message: String(data.message || "This link cannot be used.") })
  }

  if (data.mode === "connect") void startConnect()
  else if (data.mode === "result" && data.result) showResult(data.result)
  else if (data.mode === "error") showLinkError()
})()
