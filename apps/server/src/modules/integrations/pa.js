/*! Promotion Assistant landing-page snippet — docs/integrations.md */
(function () {
  'use strict';
  var NAME = 'pa_click';
  var ID = /^[0-9A-Za-z_-]{1,64}$/;
  var tag = document.currentScript;
  var data = (tag && tag.dataset) || {};
  // How long the click is kept: the campaign's attribution window (data-days, 1–365, default 30).
  var asked = parseInt(data.days, 10);
  var days = isNaN(asked) ? 30 : Math.min(365, Math.max(1, asked));
  // data-domain="example.com" shares it with the site's other subdomains (checkout.example.com):
  // only this page's own domain or one above it, which is all a browser would accept anyway.
  var host = location.hostname.toLowerCase();
  var wanted = String(data.domain || '').replace(/^\./, '').toLowerCase();
  var shared = /^[0-9a-z.-]{1,253}$/.test(wanted) && (host === wanted || host.slice(-wanted.length - 1) === '.' + wanted);
  // The id this page arrived with, for when cookies are refused.
  var landed = null;

  function clickId() {
    if (landed) return landed;
    var found = /(?:^|;\s*)pa_click=([^;]*)/.exec(document.cookie);
    return found && ID.test(found[1]) ? found[1] : null;
  }

  var query = location.search.slice(1);
  var id = null;
  var rest = [];
  (query ? query.split('&') : []).forEach(function (pair) {
    if (pair.split('=')[0] === NAME) id = pair.slice(NAME.length + 1);
    else rest.push(pair);
  });
  if (id !== null) {
    if (ID.test(id)) {
      landed = id;
      document.cookie = NAME + '=' + id + '; Max-Age=' + days * 86400 + '; Path=/; SameSite=Lax' + (shared ? '; Domain=' + wanted : '') + (location.protocol === 'https:' ? '; Secure' : '');
    }
    // The address bar (and what the visitor shares or bookmarks) loses it; the rest stays as written.
    try {
      history.replaceState(history.state, '', location.protocol + '//' + location.host + location.pathname + (rest.length ? '?' + rest.join('&') : '') + location.hash);
    } catch (_e) {
      // A browser that refuses: the id stays in the address, where the page can still read it.
    }
  }

  window.PromotionAssistant = { clickId: clickId };
})();
