import { Link, useLocation } from "react-router";
import { languages, languageParam, type Language } from "../i18n/languages";
import { useLanguage } from "../i18n/messages";
import { useLayoutMessages } from "../i18n/layout-messages";

const languageNames: Record<Language, string> = { en: "English", "zh-CN": "简体中文" };

/**
 * Plain links, so switching works before hydration too: the edge stores the choice in
 * the `lang` cookie and sends the visitor back to this page in that language.
 */
function LanguageSwitcher() {
  const location = useLocation();
  const current = useLanguage();
  const text = useLayoutMessages();
  return (
    <nav className="language-switcher" aria-label={text.language}>
      <ul>
        {languages.map((language) => {
          const params = new URLSearchParams(location.search);
          // A sign-in link's token or a recovery link must never be repeated in a link (nor in
          // HTML): the page has taken them out of its address (docs/decisions/052-recovery-link-leaves-the-address-bar.md).
          params.delete("token");
          params.delete("link");
          params.set(languageParam, language);
          return (
            <li key={language}>
              <a
                // One leading slash, whatever the address had: `//host/x` on a 404 page must not
                // become a link to another site.
                href={`/${location.pathname.replace(/^[/\\]+/, "")}?${params}`}
                hrefLang={language}
                lang={language}
                aria-current={language === current ? "true" : undefined}
              >
                {languageNames[language]}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function AppFooter() {
  const text = useLayoutMessages();
  return (
    <footer className="app-footer">
      <nav aria-label={text.footerNavigation}>
        <ul>
          <li>
            <Link to="/help">{text.footer.help}</Link>
          </li>
          <li>
            <Link to="/tos">{text.footer.tos}</Link>
          </li>
          <li>
            <Link to="/contact">{text.footer.contact}</Link>
          </li>
          <li>
            <Link to="/support">{text.footer.support}</Link>
          </li>
        </ul>
      </nav>
      <LanguageSwitcher />
      <p>{text.footerNote}</p>
    </footer>
  );
}
