// Behaviour the pages share, as a static file: the Content-Security-Policy allows no inline
// script or event handler.
//
// <form data-confirm="Question?">: ask before submitting; "Cancel" keeps the form unsent.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
  if (!window.confirm(form.dataset.confirm)) event.preventDefault();
});
