/*! Promotion Assistant landing-page snippet — docs/integrations.md */
(function () {
  'use strict';
  var NAME = 'pa_click';
  var ID = /^[0-9A-Za-z_-]{1,64}$/;
  var tag = document.currentScript;
  var data = (tag && tag.dataset) || {};
  // How long the click is kept: the campaign's attribution window (data-days, 1–365, default 30).
  var days = Math.min(365, Math.max(1, parseInt(data.days, 10) || 30));
  // data-domain="example.com" shares it with the site's other subdomains (checkout.example.com).
  var domain = /^[0-9A-Za-z.-]{1,253}$/.test(data.domain || '') ? '; Domain=' + data.domain : '';

  function clickId() {
    var found = /(?:^|;\s*)pa_click=([^;]*)/.exec(document.cookie);
    return found && ID.test(found[1]) ? found[1] : null;
  }

  try {
    var url = new URL(location.href);
    var id = url.searchParams.get(NAME);
    if (id !== null) {
      if (ID.test(id)) {
        document.cookie = NAME + '=' + id + '; Max-Age=' + days * 86400 + '; Path=/; SameSite=Lax' + domain + (location.protocol === 'https:' ? '; Secure' : '');
      }
      // The address bar (and what the visitor shares or bookmarks) loses it; the page stays.
      url.searchParams.delete(NAME);
      history.replaceState(history.state, '', url.pathname + url.search + url.hash);
    }
  } catch {
    // A browser without URL or history: the id stays in the address, where the page can still read it.
  }

  window.PromotionAssistant = { clickId: clickId };
})();
