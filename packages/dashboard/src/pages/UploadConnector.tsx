import type { Connector } from "@switchyard/api"
import { useRef, useState } from "preact/hooks"
import { api, messageOf } from "../api.js"
import { href } from "../router.js"
import { ErrorNote } from "../ui/Feedback.js"
import { useFocusOnMount } from "../ui/useDisclosure.js"
import { useAction } from "../ui/useLoad.js"
import { YamlIssueList } from "../ui/YamlIssueList.js"
import { lineRange, parseYamlIssues } from "../ui/yamlIssues.js"

/**
 * Registers a custom connector from its YAML (create_connector). A chosen file is read into
 * the editor rather than sent as it is, so the document the server's line numbers refer to
 * is on the screen and can be mended in place.
 */
export const UploadConnector = ({ onUploaded, onClose }: { onUploaded: (connector: Connector) => void; onClose: () => void }) => {
  const [yaml, setYaml] = useState("")
  const [force, setForce] = useState(false)
  const [fileError, setFileError] = useState<string | undefined>(undefined)
  /** The document as sent, which a refusal's positions refer to. */
  const [sent, setSent] = useState("")
  const [uploaded, setUploaded] = useState<Connector | undefined>(undefined)
  const upload = useAction()
  const editor = useRef<HTMLTextAreaElement>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const heading = useFocusOnMount<HTMLHeadingElement>()

  const readFile = (input: HTMLInputElement) => {
    const file = input.files?.[0]
    setFileError(undefined)
    if (file === undefined) return
    file.text().then(setYaml, (error: unknown) => setFileError(`Could not read ${file.name}: ${messageOf(error)}`))
  }

  const submit = async (event: Event) => {
    event.preventDefault()
    setUploaded(undefined)
    if (yaml.trim().length === 0) {
      upload.clear()
      setFileError("Choose a YAML file or paste the connector's YAML first.")
      return
    }
    setFileError(undefined)
    setSent(yaml)
    const connector = await upload.run(() =>
      api.connectors.create_connector({ urlParams: {}, payload: force ? { yaml, force } : { yaml } })
    )
    if (connector !== undefined) {
      setUploaded(connector)
      onUploaded(connector)
    }
  }

  const showLine = (line: number) => {
    const element = editor.current
    if (element === null) return
    const { start, end } = lineRange(element.value, line)
    element.focus()
    element.setSelectionRange(start, end)
  }

  const found = upload.error === undefined ? undefined : parseYamlIssues(messageOf(upload.error))
  return (
    <form class="panel upload" onSubmit={submit} aria-labelledby="upload-title" noValidate>
      <h2 id="upload-title" ref={heading} tabIndex={-1}>Upload a custom connector</h2>
      <p class="muted">
        A connector definition in StackOne-compatible YAML. Its version must be new and greater than the latest one of its
        key; the custom connector is for this project only and is listed as Community, as the server cannot vouch for an
        uploaded file.
      </p>
      <div class="field">
        <label for="upload-file">YAML file</label>
        <input id="upload-file" ref={fileInput} type="file" accept=".yaml,.yml,application/yaml,text/yaml,text/plain"
          aria-describedby="upload-file-help" onChange={(event) => readFile(event.currentTarget)} />
        <p id="upload-file-help" class="muted">The file is read into the editor below, where you can check it before sending.</p>
      </div>
      <div class="field">
        <label for="upload-yaml">Connector YAML</label>
        <textarea id="upload-yaml" ref={editor} rows={14} spellcheck={false} value={yaml}
          placeholder={"StackOne: 1.0.0\ninfo:\n  title: …\n  key: …\n  version: 1.0.0"}
          onInput={(event) => {
            setYaml(event.currentTarget.value)
            // once edited, the document is no longer the chosen file: do not name it
            if (fileInput.current !== null) fileInput.current.value = ""
          }} />
      </div>
      <div class="field checkbox">
        <input id="upload-force" type="checkbox" checked={force} onChange={(event) => setForce(event.currentTarget.checked)}
          aria-describedby="upload-force-help" />
        <label for="upload-force">Allow a version that is not greater than the latest</label>
        <p id="upload-force-help" class="muted">
          For a fix to an older version. A version that exists already cannot be replaced by other content.
        </p>
      </div>
      {fileError === undefined ? null : <p class="error-note" role="alert">{fileError}</p>}
      {upload.error === undefined
        ? null
        : found === undefined
        ? <ErrorNote error={upload.error} title="The connector was not uploaded" />
        : <YamlIssueList yaml={sent} found={found} onShowLine={showLine} />}
      {uploaded === undefined ? null : (
        <p class="notice" role="status">
          Uploaded <a href={href(["connectors", uploaded.key], { version: uploaded.version, owner: uploaded.owner })}>
            {uploaded.title} {uploaded.version}
          </a>{" "}
          (<code>{uploaded.key}</code>). It is in the catalog below.
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={upload.busy}>{upload.busy ? "Uploading…" : "Upload"}</button>
        <button type="button" onClick={onClose}>Close</button>
      </div>
    </form>
  )
}
