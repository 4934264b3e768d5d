/* The new-game form: "Who starts" offers the names typed, not seat numbers.
   Each seat's option takes its player's name as it is typed; a seat without a
   name is hidden (and unselected). Without this script the server's labels
   stand: the names of a form sent back, else "Player N". */
(function () {
  "use strict";
  var select = /** @type {HTMLSelectElement} */ (document.querySelector("select[name=starter]"));
  if (!select) { return; }
  function refresh() {
    Array.prototype.forEach.call(select.options, function (option) {
      if (option.value === "") { return; }
      var input = /** @type {HTMLInputElement} */ (document.getElementById("names-" + option.value));
      var name = input ? input.value.trim() : "";
      option.textContent = name || option.getAttribute("data-seat");
      option.hidden = !name;
      option.disabled = !name;
      if (!name && option.selected) { select.value = ""; }
    });
  }
  Array.prototype.forEach.call(select.options, function (option) {
    option.setAttribute("data-seat", option.textContent);
  });
  document.addEventListener("input", function (event) {
    var target = /** @type {Element} */ (event.target);
    if (target && /^names-\d+$/.test(target.id || "")) { refresh(); }
  });
  refresh();
}());
