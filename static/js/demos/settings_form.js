// A demo's settings as parameter values: the Settings form and the fields beside Run (a sentence,
// a prompt), read and written; Defaults puts them back, Enter in a field beside Run runs, and an
// edit is reported (once the typing pauses) so the time it will take can be asked again.
const EDIT_PAUSE_MS = 300;

export class SettingsForm {
  // `handlers`: run() (submit, or Enter beside Run), edited() after a change, reset() on Defaults.
  constructor(element, handlers) {
    this.element = element;
    this.handlers = handlers;
    this.form = element.querySelector(".demo-params");
    this.details = element.querySelector(".demo-settings");
    this.defaults = this.read(); // the form as rendered holds each parameter's default
    let pending = null;
    this.onEdit = () => {
      clearTimeout(pending);
      pending = setTimeout(() => this.handlers.edited(), EDIT_PAUSE_MS);
    };
    this.onSubmit = (event) => { event.preventDefault(); this.handlers.run(); };
    this.onReset = () => {
      // The form resets its own fields; the ones beside Run (a sentence, a prompt) are outside it.
      element.querySelectorAll(".demo-toolbar > .param :is(input, select)").forEach(toDefault);
      element.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
      this.handlers.reset();
      this.onEdit();
    };
    this.onToolbarKey = (event) => {
      if (event.key === "Enter" && event.target.matches(".demo-toolbar input")) { event.preventDefault(); this.handlers.run(); }
    };
    // Settings opened: the focus goes to its first field (unless a field there has it already).
    this.onToggle = () => {
      if (this.details.open && !this.form.contains(document.activeElement)) this.form.querySelector("input, select, button")?.focus();
    };
    // The Settings form is inside the toolbar: one pair of listeners hears every control.
    const toolbar = element.querySelector(".demo-toolbar");
    toolbar.addEventListener("input", this.onEdit);
    toolbar.addEventListener("change", this.onEdit);
    toolbar.addEventListener("keydown", this.onToolbarKey);
    this.form.addEventListener("submit", this.onSubmit);
    this.form.addEventListener("reset", this.onReset);
    this.details.addEventListener("toggle", this.onToggle);
  }

  get fields() {
    return [...this.element.querySelectorAll(".param")];
  }

  read() {
    return Object.fromEntries(this.fields.map((field) => [field.dataset.name, readParam(field)]));
  }

  // Put `params` (values, as a result or a job holds them) into the fields.
  write(params) {
    for (const field of this.fields) {
      if (field.dataset.name in params) writeParam(field, paramText(params[field.dataset.name]));
    }
  }

  // Put the parameters a slide address's `query` names into the fields, as typed there; the form's
  // parameters then, or null if it names none.
  writeQuery(query) {
    const named = this.fields.filter((field) => query.has(field.dataset.name));
    if (!named.length) return null;
    named.forEach((field) => writeParam(field, query.get(field.dataset.name)));
    return this.read();
  }

  // `params` as a slide address's query (`?seed=2&widths=16,64`): only those that differ from the
  // defaults, so a link stays short.
  queryFor(params) {
    const parts = [];
    for (const [name, value] of Object.entries(params ?? {})) {
      if (!(name in this.defaults) || JSON.stringify(value) === JSON.stringify(this.defaults[name])) continue;
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(paramText(value)).replace(/%2C/g, ",")}`);
    }
    return parts.length ? `?${parts.join("&")}` : "";
  }

  // Whether `params` are the settings the form was served with.
  areDefaults(params) {
    return JSON.stringify(params) === JSON.stringify(this.defaults);
  }

  // The field that holds parameter `name` (its input or menu), or null.
  control(name) {
    const named = CSS.escape(name);
    return this.element.querySelector(`.param[data-name="${named}"] input, .param[data-name="${named}"] select`);
  }

  // Let `control` be seen: Settings opened if it is in there.
  reveal(control) {
    if (this.form.contains(control)) this.details.open = true;
  }

  // Settings put away (the run and its result need the room).
  close() {
    this.details.open = false;
  }
}

// Parameter values as typed in the form. Numbers that do not parse are sent as typed,
// so the server's message can name the field and what it allows.
function readParam(field) {
  const inputs = [...field.querySelectorAll("input, select")];
  switch (field.dataset.type) {
    case "bool":
      return inputs[0].checked;
    case "multi":
      return inputs.filter((input) => input.checked).map((input) => JSON.parse(input.value));
    case "choice":
      return JSON.parse(inputs[0].value);
    case "str":
      return inputs[0].value;
    default: {
      const text = inputs[0].value.trim();
      const number = Number(text);
      return text === "" || Number.isNaN(number) ? text : number;
    }
  }
}

// A parameter's value as a link writes it: a set with commas, a checkbox as 1 or 0.
function paramText(value) {
  return Array.isArray(value) ? value.join(",") : typeof value === "boolean" ? (value ? "1" : "0") : String(value);
}

// Put a value from a link into its control, as a user would set it; the server checks it as typed.
function writeParam(field, text) {
  const inputs = [...field.querySelectorAll("input, select")];
  const asText = (json) => String(JSON.parse(json));
  switch (field.dataset.type) {
    case "bool":
      inputs[0].checked = ["1", "true", "yes", "on"].includes(text.toLowerCase());
      break;
    case "multi": {
      const wanted = new Set(text.split(",").map((item) => item.trim()));
      inputs.forEach((input) => { input.checked = wanted.has(asText(input.value)); });
      break;
    }
    case "choice": {
      const select = inputs[0];
      let option = [...select.options].find((o) => asText(o.value) === text);
      if (!option) { // not one of the choices: sent as given, so the server can say what is allowed
        option = new Option(text, JSON.stringify(text));
        select.add(option);
      }
      select.value = option.value;
      break;
    }
    default:
      inputs[0].value = text;
  }
}

// A control back to the value its page was served with (the parameter's default).
function toDefault(control) {
  if (control.matches("select")) [...control.options].forEach((option) => { option.selected = option.defaultSelected; });
  else if (control.type === "checkbox") control.checked = control.defaultChecked;
  else control.value = control.defaultValue;
}
