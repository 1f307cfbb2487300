/* Palace page guards, loaded by the `palace` Voila template (palace/app/server).
 *
 * 1. Uploads. ipywidgets' FileUpload reads the chosen file and sends all of it to the
 *    kernel over the websocket; past the server's message limit the socket drops and the
 *    page goes dead. A file over the limit (palace.scenarios.MAX_BYTES, passed in
 *    #palace-page-config) is refused here, before it is read or sent, with the sentence the
 *    kernel uses for a big file; the button keeps working.
 * 2. A lost connection. When the kernel dies or is restarted, or the connection drops and
 *    does not come back, a banner says so plainly and offers a Reload button.
 * 3. Presenter mode (palace/app/presenter.py): the ← and → keys press its Back and Next
 *    buttons while it is on screen (not while typing in a box).
 * 4. Joining the class: when the app shows "Joined as NAME" (an element with
 *    data-palace-student), the name is kept in the palace_student cookie, so the lessons
 *    this browser opens record their answers for that student (voila.json hands the
 *    Cookie header to each kernel as HTTP_COOKIE; palace.classroom.recorder reads it).
 */
(function () {
  "use strict";

  var config = {};
  try {
    var node = document.getElementById("palace-page-config");
    config = JSON.parse((node && node.textContent) || "{}") || {};
  } catch (err) {
    config = {};
  }
  var LIMIT = config.max_upload_bytes || 1048576;
  var GRACE_MS = 8000; // a connection "connecting" for longer than this is lost
  var LOST =
    "The connection to Palace was lost. Reload the page; a hand saved with Save hand " +
    "can be loaded again in Replay.";

  // ------------------------------------------------------------------ uploads
  function bytes(n) {
    return n.toLocaleString("en-US");
  }

  function megabytes(n) {
    return Math.round((n / 1048576) * 10) / 10 + " MB";
  }

  // The kernel's own sentence (palace.app.server.launcher.too_big_sentence), filled in.
  var TOO_BIG =
    config.too_big ||
    "Not loaded: {name} is {size} bytes; the limit is " + bytes(LIMIT) + " bytes (" +
      megabytes(LIMIT) + ").";

  function tooBig(file) {
    return (
      TOO_BIG.replace("{name}", file.name).replace("{size}", bytes(file.size)) +
      " The file was not sent."
    );
  }

  var lastButton = null;

  function clearNotices() {
    var old = document.querySelectorAll(".palace-upload-refused");
    for (var i = 0; i < old.length; i++) {
      old[i].remove();
    }
  }

  document.addEventListener(
    "click",
    function (event) {
      var el = event.target;
      var button = el && el.closest ? el.closest(".widget-upload, .jupyter-widget-upload") : null;
      if (button) {
        lastButton = button;
        clearNotices();
      }
    },
    true
  );

  function refuse(file) {
    clearNotices();
    var box = document.createElement("div");
    box.className = "palace-root palace-upload-refused";
    var alert = document.createElement("div");
    alert.className = "palace-alert";
    alert.setAttribute("role", "alert");
    alert.textContent = "\u2717 " + tooBig(file);
    box.appendChild(alert);
    var row = null;
    if (lastButton && lastButton.isConnected) {
      row = lastButton.closest(".widget-hbox, .jupyter-widget-hbox") || lastButton.parentElement;
    }
    if (row && row.parentElement) {
      row.insertAdjacentElement("afterend", box);
    } else {
      box.style.cssText = "position:fixed;top:8px;left:50%;transform:translateX(-50%);z-index:10000";
      document.body.appendChild(box);
    }
  }

  // Every "change" listener on an <input> goes through the size check first: FileUpload's
  // hidden file input is never in the document, so a listener on the document cannot see it.
  var guards = new WeakMap();
  var addListener = HTMLInputElement.prototype.addEventListener;
  var removeListener = HTMLInputElement.prototype.removeEventListener;

  function guarded(listener) {
    var guard = guards.get(listener);
    if (!guard) {
      guard = function (event) {
        var input = event.currentTarget || event.target;
        if (input && input.type === "file" && input.files) {
          for (var i = 0; i < input.files.length; i++) {
            if (input.files[i].size > LIMIT) {
              var file = input.files[i];
              input.value = ""; // the same file may be chosen again, and is refused again
              refuse(file);
              return undefined;
            }
          }
        }
        return typeof listener === "function"
          ? listener.call(this, event)
          : listener.handleEvent(event);
      };
      guards.set(listener, guard);
    }
    return guard;
  }

  HTMLInputElement.prototype.addEventListener = function (type, listener, options) {
    if (type === "change" && listener) {
      return addListener.call(this, type, guarded(listener), options);
    }
    return addListener.call(this, type, listener, options);
  };

  HTMLInputElement.prototype.removeEventListener = function (type, listener, options) {
    if (type === "change" && listener && guards.has(listener)) {
      return removeListener.call(this, type, guards.get(listener), options);
    }
    return removeListener.call(this, type, listener, options);
  };

  // ------------------------------------------------------------------ a lost connection
  var kernelGone = false;
  var connectingTimer = null;

  function showLost(why) {
    var bar = document.getElementById("palace-lost");
    if (bar) {
      bar.setAttribute("data-why", why);
      return;
    }
    bar = document.createElement("div");
    bar.id = "palace-lost";
    bar.setAttribute("role", "alert");
    bar.setAttribute("data-why", why);
    bar.style.cssText =
      "position:fixed;top:0;left:0;right:0;z-index:10000;display:flex;gap:16px;" +
      "align-items:center;justify-content:center;flex-wrap:wrap;padding:12px 18px;" +
      "background:#fef2f2;color:#991b1b;border-bottom:2px solid #f87171;" +
      "font:600 16px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;" +
      "box-shadow:0 2px 8px rgba(0,0,0,.15)";
    var text = document.createElement("span");
    text.className = "palace-lost-text";
    text.textContent = LOST;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "palace-lost-reload";
    button.textContent = "Reload";
    button.style.cssText =
      "font:600 15px system-ui,sans-serif;padding:6px 18px;border-radius:6px;cursor:pointer;" +
      "border:1px solid #991b1b;background:#b91c1c;color:#fff";
    button.addEventListener("click", function () {
      window.location.reload();
    });
    bar.appendChild(text);
    bar.appendChild(button);
    document.body.appendChild(bar);
  }

  function hideLost() {
    var bar = document.getElementById("palace-lost");
    if (bar && !kernelGone) {
      bar.remove();
    }
  }

  function watch(kernel) {
    kernel.statusChanged.connect(function (_, status) {
      if (status === "dead" || status === "restarting" || status === "autorestarting") {
        kernelGone = true; // a new kernel knows nothing of this page's widgets
        showLost("kernel " + status);
      }
    });
    kernel.connectionStatusChanged.connect(function (_, status) {
      if (status === "connected") {
        clearTimeout(connectingTimer);
        connectingTimer = null;
        hideLost();
      } else if (status === "disconnected") {
        showLost("disconnected");
      } else if (status === "connecting" && connectingTimer === null) {
        connectingTimer = setTimeout(function () {
          connectingTimer = null;
          if (kernel.connectionStatus !== "connected") {
            showLost("no connection");
          }
        }, GRACE_MS);
      }
    });
    if (kernel.isDisposed) {
      showLost("disposed");
    } else if (kernel.disposed && kernel.disposed.connect) {
      kernel.disposed.connect(function () {
        showLost("disposed");
      });
    }
    document.documentElement.setAttribute("data-palace-watch", "on");
  }

  function findKernel() {
    var tries = 0;
    var poll = setInterval(function () {
      tries += 1;
      var app = window.jupyterapp;
      if (app && app.widgetManagerPromise) {
        clearInterval(poll);
        app.widgetManagerPromise.promise.then(function (manager) {
          if (manager && manager.kernel) {
            watch(manager.kernel);
          }
        });
      } else if (tries > 1200) {
        clearInterval(poll); // ten minutes without an app: this page has no kernel
      }
    }, 500);
  }

  // ------------------------------------------------------------------ presenter keys
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var target = event.target;
    var tag = target && target.tagName ? target.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "textarea" || tag === "select") {
      return;
    }
    var name = { ArrowRight: "palace-presenter-next", ArrowLeft: "palace-presenter-back" }[
      event.key
    ];
    if (!name) {
      return;
    }
    var button = document.querySelector("." + name);
    if (button && button.offsetParent !== null && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  // ------------------------------------------------------------------ the student's name
  var student = null;
  new MutationObserver(function () {
    var node = document.querySelector("[data-palace-student]");
    var name = node && node.getAttribute("data-palace-student");
    if (name && name !== student) {
      student = name;
      document.cookie =
        "palace_student=" + name + "; path=/; max-age=43200; SameSite=Lax";
    }
  }).observe(document.documentElement, { childList: true, subtree: true });

  window.addEventListener("load", findKernel);
  window.palacePage = { limit: LIMIT, lostMessage: LOST, tooBig: tooBig };
})();
