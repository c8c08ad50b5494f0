// The manifest's FunctionFile: LEDGER's only ribbon command opens the task pane, so this page
// holds no functions; it only tells Office it is ready. A file, not an inline script: the
// server's Content-Security-Policy runs no inline script.
if (window.Office) Office.onReady(function () {});
