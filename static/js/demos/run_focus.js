// Where the keyboard's focus goes while a demo runs. Run and Retrain are disabled while their job
// runs, Cancel is hidden once it ends, and a focused control that is disabled or hidden drops the
// focus to the page's body: a keyboard user would start again from the top of the page. So the
// focus moves to Cancel while the job runs, then back to the control that started the run.
export class RunFocus {
  constructor(element, runButton, cancelButton) {
    this.element = element;
    this.runButton = runButton;
    this.cancelButton = cancelButton;
    this.starter = null; // the control that started the run, while the focus is ours to put back
  }

  // A run starts from `active` (what had the focus when it was asked for): remembered if it is in this demo.
  starting(active) {
    this.starter = active && this.element.contains(active) ? active : null;
  }

  // The job runs and Cancel is shown: the focus goes there if it was lost.
  running() {
    if (this.starter && this.lost() && usable(this.cancelButton)) this.cancelButton.focus();
  }

  // The run is over (a result, an error, a cancellation): the focus goes back to what started it
  // (Run, now Rerun), unless the user has put it somewhere else meanwhile.
  ended() {
    const starter = this.starter;
    this.starter = null;
    if (starter && this.lost()) (usable(starter) ? starter : this.runButton).focus();
  }

  lost() {
    const active = document.activeElement;
    return !active || active === document.body || (this.element.contains(active) && !usable(active));
  }
}

function usable(control) {
  return control.isConnected && !control.disabled && control.getClientRects().length > 0;
}
