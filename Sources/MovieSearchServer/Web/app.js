// The page of `moviesearch serve`: search as you type, top lists, favorites and a movie's details, on the JSON API.
// Data from the catalog reaches the page only through textContent and attributes, never as HTML.
'use strict';

(() => {
  const FIRST_CARDS = 30;  // more than a 1280 × 800 window shows

  const field = document.getElementById('q');
  const views = document.getElementById('views');
  const summary = document.getElementById('summary');
  const results = document.getElementById('results');
  const details = document.getElementById('details');
  const filterBar = document.getElementById('filter-bar');
  const filtersBox = document.getElementById('filters');
  const filtersToggle = document.getElementById('filters-toggle');
  const genreChips = document.getElementById('genres');
  const moreGenres = document.getElementById('more-genres');
  const yearFrom = document.getElementById('year-from');
  const yearTo = document.getElementById('year-to');
  const minRating = document.getElementById('min-rating');
  const clearFilters = document.getElementById('clear-filters');

  const state = {
    view: 'search',      // search | top | critics | favorites: the list's tab (setView alone sets it)
    shown: null,         // what #results holds: { view, query, filters } (query: the search view's; filters: their
                         // filterQuery), or null while loading
    filters: noFilters(), // the filters in force: setView alone changes them
    chips: [],           // the genre chips' entries, { name, count }, as the last facet or /api/genres gave them
    allGenres: false,    // whether every genre chip shows, or only the first CHIPS_FOLDED and the pressed ones
    favorites: new Set(),
    writing: new Map(),  // movie id → favorite writes in flight: answers older than them are not believed
    movieCount: null,
    searchAbort: null,
    listAbort: null,
    detailsAbort: null,
  };

  // MARK: - Small helpers

  /// An element with a class and, optionally, text.
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  /// 12345 → "12,345" (cheaper than toLocaleString, which a keystroke's answer calls per year).
  function grouped(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  }

  function plural(n, one, many) {
    return `${grouped(n)} ${n === 1 ? one : many}`;
  }

  async function getJSON(url, signal) {
    const response = await fetch(url, { signal, headers: { Accept: 'application/json' } });
    let body = null;
    try { body = await response.json(); } catch (_) { body = null; }
    if (!response.ok) {
      const message = body && typeof body.error === 'string' ? body.error : `${response.status}`;
      throw new Error(message);
    }
    return body;
  }

  /// The server's numbers (`GET /api/config`), read once at the start instead of copied here; null until they
  /// come or when they cannot be read. Searches and top lists leave `per_year` and `limit` out, so that the server's
  /// defaults apply without the page knowing them. The numbers name the top lists' tabs (`Top 15`: plain `Top`
  /// without them) and cap a year's "more" button, which without them asks for all (a server that refuses says so
  /// in the page's error line): the page works on without them rather than copy them.
  let config = null;
  function loadConfig() {
    return getJSON('/api/config').then((answer) => {
      config = answer;
      views.querySelector('[data-view="top"]').textContent = `Top ${config.top_list_length}`;
      views.querySelector('[data-view="critics"]').textContent = `Critics' ${config.top_list_length}`;
    }).catch(() => { config = null; });
  }

  function isAbort(error) {
    return error && error.name === 'AbortError';
  }

  function showError(error) {
    if (isAbort(error)) return;
    summary.textContent = `Something went wrong: ${error.message}`;
    summary.classList.add('error');
  }

  function setSummary(text) {
    summary.classList.remove('error');
    summary.textContent = text;
  }

  // MARK: - Movies as cards

  /// A rating out of its catalog's scale (`rating_scale`, `critic_rating_scale`): on a five-point scale stars
  /// and the number, read out as "4 out of 5" (`label` first); else `7.8/10`, `78/100`, or the number alone when
  /// the catalog's ratings are on no scale (null).
  function scaledRating(value, scale, label) {
    if (scale === 5) {
      const filled = Math.round(Math.min(Math.max(value, 0), 5));
      const stars = el('span', 'stars', `${'★'.repeat(filled)}${'☆'.repeat(5 - filled)} ${value}/5`);
      stars.setAttribute('role', 'img');
      stars.setAttribute('aria-label', `${label} ${value} out of 5`);
      return stars;
    }
    return document.createTextNode(Number.isInteger(scale) ? `${value}/${scale}` : `${value}`);
  }

  /// The element `tag` of class `rating`: the users' rating (or Unrated), then the critics' when the movie has one.
  function ratingElement(tag, movie) {
    const element = el(tag, 'rating');
    if (typeof movie.rating === 'number') {
      element.append(scaledRating(movie.rating, movie.rating_scale, 'Rated'));
    } else {
      element.append('Unrated');
    }
    if (typeof movie.critic_rating === 'number') {
      element.append(' · critics ', scaledRating(movie.critic_rating, movie.critic_rating_scale, 'Critics:'));
    }
    return element;
  }

  /// An image that turns into the placeholder when it fails to load; the placeholder alone without a URL.
  // The image hosts the page loads from: TMDb's for posters, Flickr's for photos (the server gives no other, and
  // the page's CSP names the same hosts). Anything else is a placeholder, never a request to a host a catalog chose.
  const IMAGE_HOSTS = /^https?:\/\/(image\.tmdb\.org|farm\d+\.static\.flickr\.com|live\.staticflickr\.com)\//;

  function picture(url, className, alt) {
    if (typeof url !== 'string' || !IMAGE_HOSTS.test(url)) {
      url = null;
    } else if (url.startsWith('http://')) {
      // Flickr's photo URLs are http: the same file over https, which the page's CSP allows.
      url = `https://${url.slice('http://'.length)}`;
    }
    if (url === null) {
      const box = el('div', `${className} placeholder`);
      box.setAttribute('aria-hidden', 'true');
      return box;
    }
    const img = el('img', className);
    img.loading = 'lazy';
    img.decoding = 'async';
    img.alt = alt;
    img.referrerPolicy = 'no-referrer';
    img.addEventListener('error', () => {
      const box = el('div', `${className} placeholder`);
      box.setAttribute('aria-hidden', 'true');
      img.replaceWith(box);
    }, { once: true });
    img.src = url;
    return img;
  }

  /// The title with the matched spans (UTF-16 offsets, sorted and merged) in <mark>.
  function appendMarked(parent, title, spans) {
    let at = 0;
    for (const span of Array.isArray(spans) ? spans : []) {
      const [start, end] = span;
      if (!(start >= at && end > start && end <= title.length)) continue;
      if (start > at) parent.append(document.createTextNode(title.slice(at, start)));
      parent.append(el('mark', null, title.slice(start, end)));
      at = end;
    }
    if (at < title.length) parent.append(document.createTextNode(title.slice(at)));
  }

  /// Takes the server's word on whether `movie` is a favorite (the CLI may have changed the file meanwhile).
  function noteFavorite(movie) {
    if (typeof movie.favorite !== 'boolean' || movie.missing || state.writing.has(movie.id)) return;
    if (movie.favorite === state.favorites.has(movie.id)) return;
    if (movie.favorite) state.favorites.add(movie.id); else state.favorites.delete(movie.id);
    syncHearts(movie.id);
    updateFavoritesCount();
  }

  function heart(movie) {
    noteFavorite(movie);
    const button = el('button', 'heart');
    button.type = 'button';
    button.dataset.id = String(movie.id);
    button.setAttribute('aria-label', `Favorite ${movie.title}`);
    button.setAttribute('aria-pressed', String(state.favorites.has(movie.id)));
    return button;
  }

  function overviewStart(text) {
    if (typeof text !== 'string') return '';
    if (text.length <= 160) return text;
    const cut = text.lastIndexOf(' ', 160);
    return `${text.slice(0, cut > 80 ? cut : 160)}…`;
  }

  function card(movie) {
    const article = el('article', 'movie');
    article.dataset.id = String(movie.id);
    const poster = picture(movie.poster, 'poster', '');
    article.append(poster);
    if (!movie.poster && !movie.missing) posterWhenSeen(movie.id, poster);
    const body = el('div', 'body');
    const heading = el('h3', 'heading');
    if (movie.missing) {
      heading.append(el('span', 'title', movie.title));
    } else {
      const link = el('a', 'title');
      link.href = `/movie/${movie.id}`;
      appendMarked(link, String(movie.title), movie.match);
      heading.append(link);
    }
    body.append(heading);
    const line = el('p', 'meta');
    line.append(el('span', 'year', movie.year), movie.missing ? el('span', 'rating', 'not in this catalog')
      : ratingElement('span', movie));
    body.append(line);
    body.append(el('p', 'overview', overviewStart(movie.overview)));
    article.append(body, heart(movie));
    return article;
  }

  /// A card without a poster shows the first photo of its movie's cached Flickr answer, if there is one: asked
  /// for (`cached_only=1`, which never makes the server ask Flickr) once the card comes into view.
  const cachedPhotoObserver = 'IntersectionObserver' in window ? new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      cachedPhotoObserver.unobserve(entry.target);
      const box = entry.target;
      getJSON(`/api/photos/${box.dataset.movieId}?cached_only=1`).then((answer) => {
        const first = answer && Array.isArray(answer.pictures) ? answer.pictures[0] : null;
        if (!first || typeof first.image !== 'string' || !box.isConnected) return;
        const img = picture(first.image, 'poster from-photos', '');
        if (img.tagName === 'IMG') box.replaceWith(img);
      }).catch(() => {});
    }
  }, { rootMargin: '200px' }) : null;

  function cachedPhotoWhenSeen(id, box) {
    if (!cachedPhotoObserver || box.tagName === 'IMG') return;
    box.dataset.movieId = String(id);
    cachedPhotoObserver.observe(box);
  }

  /// A card without a catalog poster asks the server for one (`/api/movies/<id>/poster`: kept, or found on TMDb by
  /// title and year) once the card is in view: at most POSTERS_AT_ONCE requests at a time, in the order the cards
  /// came into view, and never for a card that left the view before its turn. A poster replaces the grey box (the
  /// same size: nothing moves); none leaves it, to show the first cached Flickr photo if there is one.
  const POSTERS_AT_ONCE = 3;
  const posterQueue = new Set();
  let postersInFlight = 0;
  const posterObserver = 'IntersectionObserver' in window ? new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) posterQueue.add(entry.target); else posterQueue.delete(entry.target);
    }
    nextPosters();
  }) : null;

  function posterWhenSeen(id, box) {
    if (!posterObserver || box.tagName === 'IMG') return;
    box.dataset.movieId = String(id);
    posterObserver.observe(box);
  }

  function nextPosters() {
    for (const box of posterQueue) {
      if (postersInFlight >= POSTERS_AT_ONCE) return;
      posterQueue.delete(box);
      posterObserver.unobserve(box);
      if (!box.isConnected) continue;
      postersInFlight += 1;
      const id = box.dataset.movieId;
      getJSON(`/api/movies/${id}/poster`).then((answer) => {
        const url = answer && typeof answer.poster === 'string' ? answer.poster : null;
        if (!box.isConnected) return;
        const img = url ? picture(url, 'poster', '') : null;
        if (img && img.tagName === 'IMG') box.replaceWith(img); else cachedPhotoWhenSeen(Number(id), box);
      }).catch(() => {}).finally(() => {
        postersInFlight -= 1;
        nextPosters();
      });
    }
  }

  /// The details page's poster when the catalog gives none: the large one found by title and year, if any.
  function detailsPoster(movie, box, signal) {
    if (movie.poster || box.tagName === 'IMG') return;
    getJSON(`/api/movies/${movie.id}/poster`, signal).then((answer) => {
      const url = answer && typeof answer.poster_large === 'string' ? answer.poster_large : null;
      if (!url || !box.isConnected) return;
      const img = picture(url, 'poster', `Poster of ${movie.title}`);
      if (img.tagName === 'IMG') box.replaceWith(img);
    }).catch(() => {});
  }

  // MARK: - Filters

  const CHIPS_FOLDED = 12;   // genre chips shown before "All genres"
  const MOST_GENRES = 16;    // the server's cap on repeated `genre` parameters

  /// Filters that keep every movie: `genres` (names, all must hold), `from` and `to` (years or null), `minRating`
  /// (a number or null).
  function noFilters() {
    return { genres: [], from: null, to: null, minRating: null };
  }

  /// A genre's name compared as the server compares it, near enough for the chips: case, accents and spacing aside.
  function foldedName(name) {
    return String(name).normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim().replace(/\s+/g, ' ');
  }

  /// The filters as the API's parameters (SEARCH-SPEC, "Filters and facets"), which the address uses too.
  function filterParams(filters = state.filters) {
    const params = filters.genres.map((genre) => ['genre', genre]);
    if (filters.from !== null || filters.to !== null) {
      params.push(['year', filters.from !== null && filters.from === filters.to ? `${filters.from}`
        : `${filters.from ?? ''}..${filters.to ?? ''}`]);
    }
    if (filters.minRating !== null) params.push(['min_rating', `${filters.minRating}`]);
    return params;
  }

  /// `&genre=Drama&year=1990..1999`: the filters to append to an API request's query; '' for none.
  function filterQuery(filters = state.filters) {
    return filterParams(filters).map(([name, value]) => `&${name}=${encodeURIComponent(value)}`).join('');
  }

  function activeFilters(filters = state.filters) {
    return filters.genres.length + (filters.from !== null || filters.to !== null ? 1 : 0)
      + (filters.minRating !== null ? 1 : 0);
  }

  /// "Drama · 1990–1999 · rated 7+": the filters in force, for a heading or a summary; '' for none.
  function filtersLabel(filters = state.filters) {
    const parts = [...filters.genres];
    const { from, to } = filters;
    if (from !== null && to !== null) parts.push(from === to ? `${from}` : `${from}–${to}`);
    else if (from !== null) parts.push(`from ${from}`);
    else if (to !== null) parts.push(`up to ${to}`);
    if (filters.minRating !== null) parts.push(`rated ${filters.minRating}+`);
    return parts.join(' · ');
  }

  function wholeYear(text) {
    return /^-?\d{1,9}$/.test(text) ? Number(text) : null;
  }

  /// The filters an address's parameters give; what the page cannot read is left out (the server would refuse it).
  function filtersFrom(params) {
    const filters = noFilters();
    const seen = new Set();
    for (const given of params.getAll('genre')) {
      const name = given.trim();
      if (name === '' || name.length > 200 || seen.has(foldedName(name)) || filters.genres.length >= MOST_GENRES) continue;
      seen.add(foldedName(name));
      filters.genres.push(name);
    }
    const year = params.get('year') || '';
    const dots = year.indexOf('..');
    if (dots === -1) {
      filters.from = filters.to = wholeYear(year);
    } else {
      filters.from = wholeYear(year.slice(0, dots));
      filters.to = wholeYear(year.slice(dots + 2));
    }
    if (filters.from !== null && filters.to !== null && filters.from > filters.to) {
      [filters.from, filters.to] = [filters.to, filters.from];
    }
    const rating = params.get('min_rating');
    if (rating !== null && /^\d{1,3}(\.\d{1,3})?$/.test(rating.trim())) filters.minRating = Number(rating);
    return filters;
  }

  /// The year and rating fields read: the filters they give with the chips', or null when one holds something that
  /// is not a number (marked aria-invalid, and nothing changes until it is fixed).
  function filtersFromFields() {
    const filters = { ...state.filters, genres: [...state.filters.genres] };
    let valid = true;
    for (const [input, key] of [[yearFrom, 'from'], [yearTo, 'to']]) {
      const text = input.value.trim();
      const year = text === '' ? null : wholeYear(text);
      const bad = text !== '' && year === null;
      input.setAttribute('aria-invalid', String(bad));
      if (bad) valid = false;
      filters[key] = year;
    }
    const ratingText = minRating.value.trim();
    const rating = ratingText === '' ? null : Number(ratingText);
    const badRating = rating !== null && !(Number.isFinite(rating) && rating >= 0);
    minRating.setAttribute('aria-invalid', String(badRating));
    if (badRating) valid = false;
    filters.minRating = rating;
    if (filters.from !== null && filters.to !== null && filters.from > filters.to) {
      [filters.from, filters.to] = [filters.to, filters.from];
    }
    return valid ? filters : null;
  }

  /// Shows `state.filters` in the controls: the fields, the chips' pressed state, "Filters (n)", Clear.
  function showFilters() {
    const filters = state.filters;
    yearFrom.value = filters.from === null ? '' : String(filters.from);
    yearTo.value = filters.to === null ? '' : String(filters.to);
    minRating.value = filters.minRating === null ? '' : String(filters.minRating);
    for (const input of [yearFrom, yearTo, minRating]) input.removeAttribute('aria-invalid');
    const count = activeFilters();
    filtersToggle.textContent = count === 0 ? 'Filters' : `Filters (${count})`;
    clearFilters.disabled = count === 0;
    renderChips(state.chips);
  }

  /// The genre chips from `entries` ({ name, count }, the facet's order): the first CHIPS_FOLDED unless all are
  /// asked for, and every pressed genre (with 0 when the entries do not have it). A chip that had the focus keeps it.
  function renderChips(entries) {
    state.chips = Array.isArray(entries) ? entries.filter((e) => e && typeof e.name === 'string'
      && Number.isInteger(e.count)) : [];
    const active = document.activeElement;
    const focused = active instanceof HTMLElement && active.matches('button.chip') ? foldedName(active.dataset.genre)
      : null;
    const pressed = new Set(state.filters.genres.map(foldedName));
    const list = [...state.chips];
    const listed = new Set(list.map((entry) => foldedName(entry.name)));
    for (const genre of state.filters.genres) {
      if (!listed.has(foldedName(genre))) list.push({ name: genre, count: 0 });
    }
    const shown = state.allGenres ? list
      : list.filter((entry, n) => n < CHIPS_FOLDED || pressed.has(foldedName(entry.name)));
    const chips = shown.map((entry) => {
      const chip = el('button', 'chip');
      chip.type = 'button';
      chip.dataset.genre = entry.name;
      chip.setAttribute('aria-pressed', String(pressed.has(foldedName(entry.name))));
      chip.append(el('span', 'name', entry.name), el('span', 'count', grouped(entry.count)));
      return chip;
    });
    genreChips.replaceChildren(...chips);
    moreGenres.hidden = list.length <= CHIPS_FOLDED;
    moreGenres.textContent = state.allGenres ? 'Fewer genres' : `All genres (${list.length})`;
    moreGenres.setAttribute('aria-expanded', String(state.allGenres));
    if (focused !== null) {
      const again = chips.find((chip) => foldedName(chip.dataset.genre) === focused);
      if (again) again.focus({ preventScroll: true });
    }
  }

  /// The chips of a list that has no facet (no query yet, the top lists): every genre with its count in the
  /// catalog (`/api/genres`), asked for once.
  let catalogGenres = null;
  function chipsFromCatalog() {
    if (catalogGenres === null) {
      catalogGenres = getJSON('/api/genres').then((answer) => (Array.isArray(answer.genres) ? answer.genres : []))
        .catch(() => { catalogGenres = null; return []; });
    }
    catalogGenres.then((entries) => {
      if (state.view === 'top' || state.view === 'critics' || (state.view === 'search' && field.value.trim() === '')) {
        renderChips(entries);
      }
    });
  }

  /// New filters, as a new history entry (Back restores the ones before).
  function changeFilters(filters) {
    setView({ view: state.view, scroll: 0, filters }, details.hidden ? 'push' : 'replace');
  }

  genreChips.addEventListener('click', (event) => {
    const chip = event.target instanceof Element ? event.target.closest('button.chip') : null;
    if (!chip) return;
    const name = chip.dataset.genre;
    const genres = state.filters.genres.filter((genre) => foldedName(genre) !== foldedName(name));
    if (genres.length === state.filters.genres.length) {
      if (genres.length >= MOST_GENRES) return;
      genres.push(name);
    }
    changeFilters({ ...state.filters, genres });
  });

  for (const input of [yearFrom, yearTo, minRating]) {
    input.addEventListener('change', () => {
      const filters = filtersFromFields();
      if (filters === null || filterQuery(filters) === filterQuery()) return;
      changeFilters(filters);
    });
  }

  clearFilters.addEventListener('click', () => {
    changeFilters(noFilters());
    field.focus();
  });

  moreGenres.addEventListener('click', () => {
    state.allGenres = !state.allGenres;
    renderChips(state.chips);
  });

  filtersToggle.addEventListener('click', () => {
    const open = filtersBox.classList.toggle('open');
    filtersToggle.setAttribute('aria-expanded', String(open));
  });

  // MARK: - Views of the list

  function yearSection(query, year) {
    const section = el('section', 'year-group');
    section.dataset.year = String(year.year);
    section.append(el('h2', 'year', `${year.year} · ${plural(year.count, 'match', 'matches')}`));
    const list = el('div', 'movies');
    for (const movie of year.movies) list.append(card(movie));
    section.append(list);
    const rest = year.count - year.movies.length;
    if (rest > 0 && (config === null || year.movies.length < config.maximum_per_year)) {
      const more = el('button', 'more', `${grouped(rest)} more in ${year.year}`);
      more.type = 'button';
      more.addEventListener('click', () => showMore(query, year.year, year.count, section, more));
      section.append(more);
    }
    return section;
  }

  async function showMore(query, year, count, section, button) {
    button.disabled = true;
    try {
      const perYear = config === null ? count : Math.min(count, config.maximum_per_year);
      const filters = filterQuery();
      const url = `/api/search?q=${encodeURIComponent(query)}&per_year=${perYear}${filters}`;
      const answer = await getJSON(url);
      if (state.shown === null || state.shown.query !== query || state.shown.filters !== filters) return;
      const found = answer.years.find((y) => y.year === year);
      if (!found) return;
      const list = section.querySelector('.movies');
      const shown = list.children.length;
      const fragment = document.createDocumentFragment();
      for (const movie of found.movies.slice(shown)) fragment.append(card(movie));
      const first = fragment.firstElementChild;
      list.append(fragment);
      button.remove();
      if (first) first.querySelector('a.title, .title').focus?.();
    } catch (error) {
      button.disabled = false;
      showError(error);
    }
  }

  function searchSummary(answer) {
    const label = filtersLabel();
    return label === '' ? plainSearchSummary(answer) : `${plainSearchSummary(answer)} · ${label}`;
  }

  function plainSearchSummary(answer) {
    const q = `"${answer.query}"`;
    const years = plural(answer.years.length, 'year', 'years');
    if (answer.total === 0) {
      return answer.mode === 'typo' ? `No movie matches ${q}, even with typos.` : `No movie matches ${q}.`;
    }
    if (answer.mode === 'typo') {
      return `${q}: no exact match; ${plural(answer.total, 'match', 'matches')} with typos in ${years}`;
    }
    return `${q}: ${plural(answer.total, 'match', 'matches')} in ${years}`;
  }

  /// Replaces the list's content with `shown`'s (`{ view, query }`, or null while loading), and stops the rendering
  /// of an older answer's remaining years.
  let renderToken = 0;
  function replaceResults(shown, ...nodes) {
    renderToken += 1;
    state.shown = shown;
    results.replaceChildren(...nodes);
  }

  /// Whether #results holds `view` (for the search view, the field's query's answer).
  function holds(view) {
    const shown = state.shown;
    return shown !== null && shown.view === view && (view !== 'search' || shown.query === field.value)
      && (view === 'favorites' || shown.filters === filterQuery());
  }

  /// The first screenful of years at once, so that the answer is painted in the frame after it arrives; the other
  /// years (an answer may list hundreds of movies) in the tasks after that paint.
  function renderSearch(answer, query, filters) {
    const years = answer.years;
    let next = 0;
    const add = (budget) => {
      const fragment = document.createDocumentFragment();
      for (let movies = 0; next < years.length && movies < budget; next += 1) {
        fragment.append(yearSection(answer.query, years[next]));
        movies += years[next].movies.length;
      }
      return fragment;
    };
    replaceResults({ view: 'search', query, filters }, add(FIRST_CARDS));
    setSummary(searchSummary(answer));
    const token = renderToken;
    const more = () => {
      if (token !== renderToken || next >= years.length) return;
      results.append(add(200));
      setTimeout(more, 0);
    };
    if (next < years.length) requestAnimationFrame(() => setTimeout(more, 0));
  }

  function renderEmptySearch() {
    replaceResults({ view: 'search', query: field.value, filters: filterQuery() });
    setSummary(state.movieCount === null ? 'Type a title to search.'
      : `Type a title to search ${plural(state.movieCount, 'movie', 'movies')}.`);
    chipsFromCatalog();
  }

  /// A flat list of cards under `title` (none for null): the top lists and favorites.
  function renderFlat(view, movies, text, title = null, filters = '') {
    const list = el('div', 'movies flat');
    for (const movie of movies) list.append(card(movie));
    const nodes = title === null ? [list] : [el('h2', 'list-title', title), list];
    replaceResults({ view, filters }, ...nodes);
    setSummary(text);
  }

  /// Searches for the field's text, cancelling the search a newer keystroke replaces.
  async function search() {
    const query = field.value;
    if (state.searchAbort) state.searchAbort.abort();
    if (query.trim() === '') {
      state.searchAbort = null;
      renderEmptySearch();
      return;
    }
    const controller = new AbortController();
    state.searchAbort = controller;
    try {
      const filters = filterQuery();
      const answer = await getJSON(`/api/search?q=${encodeURIComponent(query)}&facets=genre${filters}`,
        controller.signal);
      if (controller.signal.aborted || state.view !== 'search') return;
      performance.clearMarks('search-reply');
      performance.clearMarks('search-rendered');
      performance.mark('search-reply');
      renderSearch(answer, query, filters);
      renderChips(answer.facets && Array.isArray(answer.facets.genre) ? answer.facets.genre : []);
      // For timing keystrokes (README's Web section): the answer is in the DOM; it is painted at the next frame.
      performance.mark('search-rendered');
    } catch (error) {
      showError(error);
    } finally {
      if (state.searchAbort === controller) state.searchAbort = null;
    }
  }

  async function loadList(view) {
    if (state.listAbort) state.listAbort.abort();
    const controller = new AbortController();
    state.listAbort = controller;
    try {
      if (view === 'favorites') {
        const answer = await getJSON('/api/favorites', controller.signal);
        if (controller.signal.aborted || state.view !== view) return;
        setFavorites(answer.favorites.map((m) => m.id));
        renderFlat(view, answer.favorites, answer.favorites.length === 0 ? 'No favorites yet: press a heart to add one.'
          : plural(answer.favorites.length, 'favorite', 'favorites'));
      } else {
        const by = view === 'critics' ? 'critic' : 'rating';
        const filters = filterQuery();
        chipsFromCatalog();
        const answer = await getJSON(`/api/top?by=${by}${filters}`, controller.signal);
        if (controller.signal.aborted || state.view !== view) return;
        // The tab's name ("Top 15", from /api/config) and the filters in force: "Top 15 · Drama · 1990–1999".
        const label = filtersLabel();
        const tab = views.querySelector(`[data-view="${view}"]`).textContent;
        const empty = answer.movies.length === 0 ? ' No movie passes the filters.' : '';
        renderFlat(view, answer.movies, (view === 'critics' ? `The critics' ${answer.movies.length}`
          : `The top ${answer.movies.length} by rating`) + empty, label === '' ? tab : `${tab} · ${label}`, filters);
      }
    } catch (error) {
      showError(error);
    }
  }

  /// Loads the list's `view` into #results (unless it holds it already and `reload` is false). What the page shows is
  /// setView's: this only fills the list.
  function loadView(view, { reload = true } = {}) {
    if (!reload && holds(view)) return;
    if (view === 'search') {
      // The older answer stays in view until the new one replaces it, but is not the field's any more.
      if (state.shown !== null && state.shown.view === 'search') state.shown = null;
      search();
    } else {
      if (state.searchAbort) state.searchAbort.abort();
      replaceResults(null);
      setSummary('Loading…');
      loadList(view);
    }
  }

  // MARK: - Favorites

  function setFavorites(ids) {
    state.favorites = new Set(ids);
    updateFavoritesCount();
    for (const button of document.querySelectorAll('button.heart')) {
      button.setAttribute('aria-pressed', String(state.favorites.has(Number(button.dataset.id))));
    }
  }

  function updateFavoritesCount() {
    views.querySelector('[data-view="favorites"]').textContent = `Favorites (${state.favorites.size})`;
  }

  function syncHearts(id) {
    const pressed = String(state.favorites.has(id));
    for (const button of document.querySelectorAll(`button.heart[data-id="${id}"]`)) {
      button.setAttribute('aria-pressed', pressed);
    }
  }

  async function toggleFavorite(id) {
    const adding = !state.favorites.has(id);
    // Shown at once; undone if the server refuses.
    if (adding) state.favorites.add(id); else state.favorites.delete(id);
    syncHearts(id);
    updateFavoritesCount();
    state.writing.set(id, (state.writing.get(id) || 0) + 1);
    try {
      const response = await fetch(`/api/favorites/${id}`, { method: adding ? 'PUT' : 'DELETE' });
      if (!response.ok) {
        let message = `${response.status}`;
        try { message = (await response.json()).error || message; } catch (_) { /* not JSON */ }
        throw new Error(message);
      }
    } catch (error) {
      if (adding) state.favorites.delete(id); else state.favorites.add(id);
      syncHearts(id);
      updateFavoritesCount();
      showError(error);
    } finally {
      const left = state.writing.get(id) - 1;
      if (left > 0) state.writing.set(id, left); else state.writing.delete(id);
    }
  }

  // MARK: - Details

  function detailsRow(className, label, text) {
    const row = el('p', className);
    row.append(el('span', 'label', `${label}: `), document.createTextNode(text));
    return row;
  }

  /// The photos part of a details page: loading, then the photos in two columns (each a link to its page on
  /// Flickr), or why there are none, or the failure with a Retry button.
  async function loadPhotos(id, section, signal) {
    section.replaceChildren(el('p', 'photos-status loading', 'Loading photos from Flickr…'));
    let answer;
    try {
      answer = await getJSON(`/api/photos/${id}`, signal);
    } catch (error) {
      if (isAbort(error)) return;
      const failure = el('p', 'photos-status error');
      failure.append(el('span', 'message', `Photos could not be loaded: ${error.message}`), ' ');
      const retry = el('button', 'retry', 'Retry');
      retry.type = 'button';
      retry.addEventListener('click', () => loadPhotos(id, section, signal));
      failure.append(retry);
      section.replaceChildren(failure);
      return;
    }
    if (signal.aborted) return;
    if (!answer || answer.photos === null || answer.photos === undefined) {
      const noKey = typeof answer?.request === 'string' && answer.request.includes('api_key=YOUR_FLICKR_API_KEY&');
      section.replaceChildren(el('p', 'photos-status no-key', noKey
        ? 'Photos come from Flickr: set FLICKR_API_KEY or pass --flickr-key <key> to serve.'
        : 'No photos are saved or cached for this title, and the server does not ask Flickr (--offline).'));
      return;
    }
    const pictures = Array.isArray(answer.pictures) ? answer.pictures : [];
    if (pictures.length === 0) {
      section.replaceChildren(el('p', 'photos-status no-photos', 'Flickr has no photos for this title'));
      return;
    }
    const grid = el('div', 'photos');
    pictures.forEach((photo, n) => {
      const image = picture(photo.image, 'photo', `Photo ${n + 1} of ${pictures.length} on Flickr`);
      if (typeof photo.page === 'string' && photo.page.startsWith('https://www.flickr.com/')) {
        const link = el('a', 'photo-link');
        link.href = photo.page;
        link.rel = 'noopener noreferrer';
        link.target = '_blank';
        link.append(image);
        grid.append(link);
      } else {
        grid.append(image);
      }
    });
    section.replaceChildren(grid);
  }

  function renderDetails(movie) {
    const fragment = document.createDocumentFragment();
    const back = el('button', 'back', '← Back');
    back.type = 'button';
    back.addEventListener('click', goBack);
    fragment.append(back);

    const head = el('div', 'details-head');
    head.append(picture(movie.poster, 'poster', `Poster of ${movie.title}`));
    const info = el('div', 'info');
    const title = el('h1', null, movie.title);
    title.id = 'details-title';
    title.tabIndex = -1;
    info.append(title);
    if (movie.original_title && movie.original_title !== movie.title) {
      info.append(el('p', 'original-title', movie.original_title));
    }
    info.append(el('p', 'year', movie.year), ratingElement('p', movie));
    const genres = Array.isArray(movie.genres) ? movie.genres : [];
    info.append(detailsRow('genres', 'Genres', genres.length ? genres.join(', ') : 'none given'));
    const cast = Array.isArray(movie.cast) ? movie.cast : [];
    info.append(detailsRow('cast', 'Cast', cast.length ? cast.join(', ') : 'none given'));
    const actions = el('p', 'actions');
    actions.append(heart(movie));
    if (typeof movie.imdb_id === 'string' && movie.imdb_id) {
      const link = el('a', 'imdb', 'IMDb');
      link.href = `https://www.imdb.com/title/${encodeURIComponent(movie.imdb_id)}/`;
      link.rel = 'noopener noreferrer';
      actions.append(link);
    }
    if (Number.isInteger(movie.tmdb_id)) {
      const link = el('a', 'tmdb', 'TMDb');
      link.href = `https://www.themoviedb.org/movie/${movie.tmdb_id}`;
      link.rel = 'noopener noreferrer';
      actions.append(link);
    }
    info.append(actions);
    head.append(info);
    fragment.append(head);
    fragment.append(el('p', 'overview', typeof movie.overview === 'string' ? movie.overview : ''));

    fragment.append(el('h2', 'photos-title', 'Photos'));
    const section = el('section', 'photos-section');
    section.setAttribute('aria-live', 'polite');
    fragment.append(section);
    details.dataset.id = String(movie.id);
    details.replaceChildren(fragment);
  }

  /// Loads movie `id` into #details (which setView shows).
  async function loadDetails(id) {
    if (state.detailsAbort) state.detailsAbort.abort();
    const controller = new AbortController();
    state.detailsAbort = controller;
    details.replaceChildren(el('p', 'loading', 'Loading…'));
    window.scrollTo(0, 0);
    try {
      const movie = await getJSON(`/api/movies/${id}`, controller.signal);
      if (controller.signal.aborted) return;
      renderDetails(movie);
      detailsPoster(movie, details.querySelector('.details-head .poster'), controller.signal);
      // The movie at once; its photos when Flickr (or the cache) answers.
      loadPhotos(id, details.querySelector('.photos-section'), controller.signal);
      document.title = `${movie.title} (${movie.year}) · Movie search`;
      details.querySelector('h1').focus({ preventScroll: true });
    } catch (error) {
      if (isAbort(error)) return;
      const back = el('button', 'back', '← Back');
      back.type = 'button';
      back.addEventListener('click', goBack);
      details.replaceChildren(back, el('h1', null, 'Not found'), el('p', 'error', error.message));
    }
  }

  // MARK: - History

  /// The list's address: the query or the tab, then the filters (`/?q=dark&genre=Drama&year=1990..1999`).
  function listURL() {
    const params = state.view === 'search' ? (field.value ? [['q', field.value]] : []) : [['view', state.view]];
    params.push(...filterParams());
    if (params.length === 0) return '/';
    return `/?${params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
  }

  let urlTimer = null;

  /// Puts the list's state in the address soon (at most a few times a second while typing).
  function rememberListSoon() {
    if (urlTimer !== null) return;
    urlTimer = setTimeout(() => {
      urlTimer = null;
      if (details.hidden) history.replaceState(listState(), '', listURL());
    }, 300);
  }

  function listState() {
    return { page: 'list', view: state.view, q: field.value, scroll: window.scrollY, filters: state.filters };
  }

  /// The one place that changes what the page shows and the history entry that says it: the list's tab
  /// (`state.view`, its buttons), the list or a movie's details (`details.hidden`), and the entry, as `how` says:
  /// 'push' a new one (the list's entry keeps its scroll position first, for Back), 'replace' this one, 'soon'
  /// replace it when typing pauses, 'none' when the browser moved to it already (Back, Forward).
  /// `to` is `{ movie: id }` for a movie's details, or `{ view, load, scroll, filters }` for the list: `load`
  /// 'always' (the default), 'stale' (unless #results holds the view already) or 'no' (the caller loads it);
  /// `scroll` where to; `filters` the filters from now on (the same when left out).
  function setView(to, how) {
    if (how === 'push' && details.hidden) history.replaceState(listState(), '', listURL());
    filterBar.hidden = to.movie !== undefined || to.view === 'favorites';
    if (to.filters !== undefined) {
      state.filters = to.filters;
      showFilters();
    }
    if (to.movie !== undefined) {
      const entry = { page: 'details', id: to.movie, fromList: how === 'push' };
      if (how === 'push') history.pushState(entry, '', `/movie/${to.movie}`);
      // Replaced at a deep link only, whose address stays as it was typed.
      if (how === 'replace') history.replaceState(entry, '', window.location.pathname);
      summary.hidden = true;
      results.hidden = true;
      details.hidden = false;
      window.scrollTo(0, 0);
      loadDetails(to.movie);
      return;
    }
    if (state.detailsAbort) state.detailsAbort.abort();
    state.view = to.view;
    for (const button of views.querySelectorAll('button[data-view]')) {
      button.setAttribute('aria-pressed', String(button.dataset.view === to.view));
    }
    details.hidden = true;
    summary.hidden = false;
    results.hidden = false;
    document.title = 'Movie search';
    if (to.load !== 'no') loadView(to.view, { reload: to.load !== 'stale' });
    if (to.scroll !== undefined) window.scrollTo(0, to.scroll);
    if (how === 'push') history.pushState(listState(), '', listURL());
    if (how === 'replace') history.replaceState(listState(), '', listURL());
    if (how === 'soon') rememberListSoon();
  }

  function goBack() {
    if (history.state && history.state.page === 'details' && history.state.fromList) {
      history.back();
    } else {
      setView({ view: state.view, load: 'stale' }, 'replace');
    }
  }

  window.addEventListener('popstate', (event) => {
    const saved = event.state;
    if (saved && saved.page === 'details') {
      setView({ movie: saved.id }, 'none');
      return;
    }
    const list = saved || fromLocation();
    field.value = list.q || '';
    setView({ view: list.view || 'search', load: 'stale', scroll: list.scroll || 0, filters: list.filters || noFilters() },
      'none');
    const selected = results.querySelector('article.movie.selected a.title');
    if (selected) selected.focus({ preventScroll: true });
  });

  function fromLocation() {
    const params = new URLSearchParams(window.location.search);
    const view = params.get('view');
    return {
      page: 'list',
      view: ['top', 'critics', 'favorites'].includes(view) ? view : 'search',
      q: params.get('q') || '',
      scroll: 0,
      filters: filtersFrom(params),
    };
  }

  // MARK: - Selection and keys

  function cards() {
    return Array.from(results.querySelectorAll('article.movie'));
  }

  function select(next) {
    const all = cards();
    if (all.length === 0) return;
    const current = all.findIndex((a) => a.classList.contains('selected'));
    let index = current === -1 ? (next > 0 ? 0 : all.length - 1) : current + next;
    index = Math.max(0, Math.min(all.length - 1, index));
    if (current !== -1) {
      all[current].classList.remove('selected');
      all[current].removeAttribute('aria-current');
    }
    all[index].classList.add('selected');
    all[index].setAttribute('aria-current', 'true');
    all[index].scrollIntoView({ block: 'nearest' });
  }

  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    const inField = target === field;
    const typing = inField || (target instanceof HTMLElement && (target.isContentEditable
      || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)));
    const listShown = details.hidden;
    if (event.key === '/' && !typing) {
      event.preventDefault();
      if (!listShown) goBack();
      field.focus();
      field.select();
    } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && listShown && (inField || !typing)) {
      event.preventDefault();
      select(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter' && listShown && (inField || target === document.body
      || (target instanceof HTMLElement && target.matches('article.movie')))) {
      const selected = results.querySelector('article.movie.selected');
      if (selected && selected.querySelector('a.title')) {
        event.preventDefault();
        setView({ movie: Number(selected.dataset.id) }, 'push');
      }
    } else if (event.key === 'Escape') {
      if (!listShown) {
        event.preventDefault();
        goBack();
      } else if (field.value !== '' && (inField || !typing)) {
        event.preventDefault();
        field.value = '';
        field.focus();
        setView({ view: 'search' }, 'replace');
      }
    }
  });

  field.addEventListener('input', () => {
    setView({ view: 'search' }, details.hidden ? 'soon' : 'push');
  });

  views.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-view]');
    if (!button) return;
    setView({ view: button.dataset.view, scroll: 0 }, details.hidden ? 'replace' : 'push');
  });

  document.addEventListener('click', (event) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    const heartButton = target.closest('button.heart');
    if (heartButton) {
      toggleFavorite(Number(heartButton.dataset.id));
      return;
    }
    const link = target.closest('a.title');
    if (link && event.button === 0 && !event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      const article = link.closest('article.movie');
      for (const other of results.querySelectorAll('article.movie.selected')) {
        other.classList.remove('selected');
        other.removeAttribute('aria-current');
      }
      article.classList.add('selected');
      setView({ movie: Number(article.dataset.id) }, 'push');
    }
  });

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') return;
    getJSON('/api/favorites').then((answer) => setFavorites(answer.favorites.map((m) => m.id))).catch(() => {});
  });

  // MARK: - Start

  async function start() {
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
    const moviePath = /^\/movie\/(\d{1,18})\/?$/.exec(window.location.pathname);
    const favorites = getJSON('/api/favorites').then((answer) => {
      setFavorites(answer.favorites.map((m) => m.id));
    }).catch(showError);
    getJSON('/api/top?by=critic&limit=1').then((answer) => {
      views.querySelector('[data-view="critics"]').hidden = answer.movies.length === 0;
    }).catch(() => { /* no critics' tab */ });
    const configured = loadConfig();
    const health = getJSON('/healthz').then((answer) => { state.movieCount = answer.movies; }).catch(() => {});

    if (moviePath) {
      await favorites;
      setView({ movie: Number(moviePath[1]) }, 'replace');
      return;
    }
    const saved = history.state && history.state.page === 'list' ? history.state : fromLocation();
    field.value = saved.q;
    field.focus();
    setView({ view: saved.view, load: 'no', scroll: 0, filters: saved.filters || noFilters() }, 'replace');
    await Promise.all([favorites, health, configured]);
    loadView(saved.view);
  }

  start();
})();
