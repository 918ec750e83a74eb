import { ContentBrowser } from '../content/ContentBrowser.js';
import { CreateScreen } from '../create/CreateScreen.js';
import { EditorScreen } from '../editor/EditorScreen.js';
import { GitScreen } from '../git/GitScreen.js';
import { MediaScreen } from '../media/MediaScreen.js';
import { ReviewScreen } from '../review/ReviewScreen.js';
import { href, route } from '../state/router.js';
import { sites, startError } from '../state/session.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';
import { Header } from './Header.js';

function Screen() {
  const current = route.value;
  if (startError.value)
    return <ErrorNotice error={startError.value} title="The admin could not load the site configuration" />;
  if (!sites.value)
    return (
      <p class="loading" role="status">
        Loading…
      </p>
    );
  switch (current.screen) {
    case 'content':
      return <ContentBrowser />;
    case 'editor':
      return <EditorScreen key={`${current.id}/${current.locale}`} id={current.id} locale={current.locale} />;
    case 'new':
      return <CreateScreen />;
    case 'review':
      return <ReviewScreen query={current.query} />;
    case 'media':
      return <MediaScreen folder={current.folder} />;
    case 'git':
      return <GitScreen />;
    default:
      return (
        <section class="screen">
          <h1>Not found</h1>
          <p>
            There is no admin screen at <code>{current.path}</code>.
          </p>
          <p>
            <a href={href('/content')}>Go to the content list</a>
          </p>
        </section>
      );
  }
}

export function App() {
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        <Screen />
      </main>
    </>
  );
}
