/**
 * A JSON object's entries as a definition list (an account's settings or metadata): text as
 * is, anything else as compact JSON.
 */
export const Values = ({ values }: { values: Readonly<Record<string, unknown>> }) => (
  <dl class="facts">
    {Object.entries(values).map(([key, value]) => (
      <div key={key} class="fact">
        <dt><code>{key}</code></dt>
        <dd>{typeof value === "string" ? value : <code>{JSON.stringify(value)}</code>}</dd>
      </div>
    ))}
  </dl>
)
