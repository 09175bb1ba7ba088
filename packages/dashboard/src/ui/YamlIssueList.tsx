import { excerpt, type YamlIssues } from "./yamlIssues.js"

/**
 * A refused upload's problems, each at its line and column with the lines around it, the
 * line marked and a caret under the column (as a compiler prints them), and a button that
 * selects the line in the editor. Positions are 1-based, as editors count.
 */
export const YamlIssueList = (
  { yaml, found, onShowLine }: {
    /** The document as it was sent (the editor may have changed since). */
    yaml: string
    found: YamlIssues
    onShowLine: (line: number) => void
  }
) => (
  <div class="error-note yaml-issues" role="alert">
    <p>
      <strong>The connector was not uploaded.</strong>{" "}
      {found.issues.length === 1 ? "The server found one problem" : `The server found ${found.issues.length} problems`}
      {found.more === undefined ? "" : ` (${found.more} not listed)`}:
    </p>
    <ol>
      {found.issues.map((issue, index) => (
        <li key={index}>
          <p class="yaml-issue">
            {issue.line === undefined ? null : <strong class="yaml-where">line {issue.line}, column {issue.column ?? 1}:</strong>}{" "}
            <span>{issue.text}</span>
          </p>
          {issue.line === undefined ? null : (
            <>
              <pre class="yaml-excerpt" aria-label={`The YAML around line ${issue.line}`}>
                {excerpt(yaml, issue.line).map((row) => (
                  <span key={row.number} class={row.number === issue.line ? "yaml-line yaml-line-marked" : "yaml-line"}
                    data-line={row.number}>
                    <span class="yaml-gutter" aria-hidden="true">{row.number === issue.line ? "›" : " "}{String(row.number).padStart(4)} │ </span>
                    {row.text}
                    {row.number === issue.line
                      ? <span class="yaml-caret" aria-hidden="true">{"      │ "}{" ".repeat(Math.max(0, (issue.column ?? 1) - 1))}^</span>
                      : null}
                  </span>
                ))}
              </pre>
              <button type="button" class="link" onClick={() => onShowLine(issue.line!)}>
                Select line {issue.line} in the editor
              </button>
            </>
          )}
        </li>
      ))}
    </ol>
  </div>
)
