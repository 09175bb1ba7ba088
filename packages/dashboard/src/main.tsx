import "uplot/dist/uPlot.min.css"
import "./dashboard.css"
import { render } from "preact"
import { App } from "./App.js"

render(<App />, document.getElementById("app")!)
