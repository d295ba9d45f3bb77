/* Data detectors: what the text around the pressed character is, beyond a word. Addresses
 * (URLs, e-mail) and paths are read from the run of characters without spaces under the press;
 * phone numbers come from libphonenumber (phone.cpp); dates and times from a small scanner over
 * the words and numbers around the press, with the month and weekday names and the numeric
 * date order of the user's locale (glibc's LC_TIME) besides English. No library in Debian finds
 * dates in free text: ICU parses one known pattern at a time, with no search. */
#define _GNU_SOURCE
#include <glib.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "lookup.h"

#define CHARS_MAX 1024
#define TOKENS_MAX 128
#define WORD_BYTES 48

enum token_type { TOKEN_NUMBER, TOKEN_WORD, TOKEN_MARK };

struct token {
	enum token_type type;
	glong start, end; /* characters of the context */
	int value, digits; /* numbers */
	char word[WORD_BYTES]; /* words, case-folded, without a final full stop */
	gunichar mark;
};

struct scan {
	const gunichar *text;
	glong length;
	struct token tokens[TOKENS_MAX];
	int count;
};

static bool is_space(gunichar c)
{
	return g_unichar_isspace(c) || c == 0xa0 || c == 0x202f;
}

/* Words and numbers split where letters meet digits ("15h30": 15, h, 30). */
static void tokenise(struct scan *scan)
{
	scan->count = 0;
	for (glong i = 0; i < scan->length && scan->count < TOKENS_MAX;) {
		gunichar c = scan->text[i];
		if (is_space(c)) {
			i++;
			continue;
		}
		struct token *token = &scan->tokens[scan->count++];
		memset(token, 0, sizeof *token);
		token->start = i;
		if (g_unichar_isdigit(c) && g_unichar_digit_value(c) >= 0) {
			token->type = TOKEN_NUMBER;
			while (i < scan->length && g_unichar_digit_value(scan->text[i]) >= 0 && token->digits < 9) {
				token->value = token->value * 10 + g_unichar_digit_value(scan->text[i]);
				token->digits++;
				i++;
			}
			while (i < scan->length && g_unichar_digit_value(scan->text[i]) >= 0)
				i++, token->digits++;
		} else if (g_unichar_isalpha(c)) {
			token->type = TOKEN_WORD;
			char bytes[WORD_BYTES * 2] = "";
			size_t used = 0;
			while (i < scan->length && g_unichar_isalpha(scan->text[i])) {
				if (used + 6 < sizeof bytes)
					used += (size_t)g_unichar_to_utf8(scan->text[i], bytes + used);
				i++;
			}
			bytes[used] = '\0';
			gchar *folded = g_utf8_casefold(bytes, -1);
			g_strlcpy(token->word, folded, sizeof token->word);
			g_free(folded);
		} else {
			token->type = TOKEN_MARK;
			token->mark = c;
			i++;
		}
		token->end = i;
	}
}

/* Names of the user's locale (LC_TIME) and English, case-folded, without a final full stop. */
struct names {
	char months[12][6][WORD_BYTES];
	char weekdays[7][4][WORD_BYTES];
	/* The numeric date's order: 'd', 'm', 'y' as the locale's D_FMT has them. */
	char order[3];
};

static void fold_into(char *out, const char *name)
{
	gchar *folded = g_utf8_casefold(name, -1);
	size_t length = strlen(folded);
	while (length > 0 && folded[length - 1] == '.')
		folded[--length] = '\0';
	g_strlcpy(out, folded, WORD_BYTES);
	g_free(folded);
}

static const char *english_months[12] = {"january", "february", "march", "april", "may", "june", "july", "august",
	"september", "october", "november", "december"};
static const char *english_weekdays[7] = {
	"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};

static void load_names(struct names *names)
{
	memset(names, 0, sizeof *names);
	locale_t user = newlocale(LC_TIME_MASK, "", (locale_t)0);
	for (int m = 0; m < 12; m++) {
		fold_into(names->months[m][0], english_months[m]);
		char abbreviation[5];
		g_strlcpy(abbreviation, english_months[m], m == 8 ? 5 : 4); /* "sept", "sep" */
		fold_into(names->months[m][1], abbreviation);
		g_strlcpy(abbreviation, english_months[m], 4);
		fold_into(names->months[m][2], abbreviation);
		if (user) {
			fold_into(names->months[m][3], nl_langinfo_l(MON_1 + m, user));
			fold_into(names->months[m][4], nl_langinfo_l(ABMON_1 + m, user));
			fold_into(names->months[m][5], nl_langinfo_l(ALTMON_1 + m, user));
		}
	}
	for (int d = 0; d < 7; d++) {
		fold_into(names->weekdays[d][0], english_weekdays[d]);
		char abbreviation[4];
		g_strlcpy(abbreviation, english_weekdays[d], 4);
		fold_into(names->weekdays[d][1], abbreviation);
		if (user) {
			fold_into(names->weekdays[d][2], nl_langinfo_l(DAY_1 + d, user));
			fold_into(names->weekdays[d][3], nl_langinfo_l(ABDAY_1 + d, user));
		}
	}
	const char *format = user ? nl_langinfo_l(D_FMT, user) : "%m/%d/%y";
	int used = 0;
	for (const char *c = format; *c && used < 3; c++) {
		if (*c != '%' || !c[1])
			continue;
		char field = c[1] == 'e' ? 'd' : (c[1] == 'Y' || c[1] == 'y') ? 'y' : c[1];
		if (field == 'd' || field == 'm' || field == 'y')
			names->order[used++] = field;
		c++;
	}
	if (used < 3 || (format[0] == '%' && format[1] == 'F'))
		memcpy(names->order, format[1] == 'F' ? "ymd" : "mdy", 3);
	if (user)
		freelocale(user);
}

static int month_named(const struct names *names, const char *word)
{
	for (int m = 0; m < 12; m++)
		for (int k = 0; k < 6; k++)
			if (names->months[m][k][0] && strcmp(names->months[m][k], word) == 0)
				return m + 1;
	return 0;
}

static bool weekday_named(const struct names *names, const char *word)
{
	for (int d = 0; d < 7; d++)
		for (int k = 0; k < 4; k++)
			if (names->weekdays[d][k][0] && strcmp(names->weekdays[d][k], word) == 0)
				return true;
	return false;
}

struct parser {
	const struct scan *scan;
	const struct names *names;
	int at; /* the next token */
};

static const struct token *peek(struct parser *p, int ahead)
{
	return p->at + ahead < p->scan->count ? &p->scan->tokens[p->at + ahead] : NULL;
}

static bool take_mark(struct parser *p, gunichar mark)
{
	const struct token *token = peek(p, 0);
	if (!token || token->type != TOKEN_MARK || token->mark != mark)
		return false;
	p->at++;
	return true;
}

static bool take_word(struct parser *p, const char *word)
{
	const struct token *token = peek(p, 0);
	if (!token || token->type != TOKEN_WORD || strcmp(token->word, word) != 0)
		return false;
	p->at++;
	return true;
}

static bool take_number(struct parser *p, int min_digits, int max_digits, int *value)
{
	const struct token *token = peek(p, 0);
	if (!token || token->type != TOKEN_NUMBER || token->digits < min_digits || token->digits > max_digits)
		return false;
	*value = token->value;
	p->at++;
	return true;
}

static int full_year(int year, int digits)
{
	return digits <= 2 ? 2000 + year : year;
}

static bool valid_date(int year, int month, int day)
{
	return year >= 1000 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 &&
		day <= g_date_get_days_in_month((GDateMonth)month, (GDateYear)year);
}

static bool take_month_word(struct parser *p, int *month)
{
	const struct token *token = peek(p, 0);
	if (!token || token->type != TOKEN_WORD || !(*month = month_named(p->names, token->word)))
		return false;
	p->at++;
	take_mark(p, '.');
	return true;
}

/* A year after a textual date: ", 2025" or " 2025"; none means the next such day. */
static void take_year(struct parser *p, int *year, bool *has_year)
{
	int saved = p->at;
	if (!take_mark(p, ','))
		take_word(p, "de");
	int value;
	if (take_number(p, 4, 4, &value)) {
		*year = value;
		*has_year = true;
	} else {
		p->at = saved;
	}
}

static bool parse_date(struct parser *p, struct lookup_when *when)
{
	int start = p->at;
	const struct token *first = peek(p, 0);
	if (first && first->type == TOKEN_WORD && weekday_named(p->names, first->word)) {
		p->at++;
		take_mark(p, ',');
	}
	int a, b, c, month;
	int before = p->at;
	bool has_year = false;
	int year = 0;
	/* ISO 8601: 2025-03-14 */
	if (take_number(p, 4, 4, &a) && take_mark(p, '-') && take_number(p, 1, 2, &b) && take_mark(p, '-') &&
		take_number(p, 1, 2, &c) && valid_date(a, b, c)) {
		*when = (struct lookup_when){.year = a, .month = b, .day = c, .has_date = true, .has_year = true};
		return true;
	}
	/* Numbers in the locale's order: 14/03/2025, 03/14/2025, 14.03.2025 */
	p->at = before;
	const struct token *number = peek(p, 0);
	if (number && number->type == TOKEN_NUMBER && number->digits <= 4) {
		int values[3], digits[3];
		gunichar separator = 0;
		bool read = true;
		for (int i = 0; i < 3 && read; i++) {
			const struct token *token = peek(p, 0);
			read = token && token->type == TOKEN_NUMBER && token->digits <= 4;
			if (!read)
				break;
			values[i] = token->value;
			digits[i] = token->digits;
			p->at++;
			if (i < 2) {
				const struct token *mark = peek(p, 0);
				read = mark && mark->type == TOKEN_MARK && (mark->mark == '/' || mark->mark == '.' || mark->mark == '-') &&
					(!separator || separator == mark->mark) && mark->start == token->end;
				separator = read ? mark->mark : separator;
				p->at += read;
			}
		}
		if (read) {
			int day = 0, month_value = 0, year_value = 0;
			for (int i = 0; i < 3; i++) {
				char field = digits[i] == 4 ? 'y' : p->names->order[i];
				if (field == 'y' && digits[i] != 2 && digits[i] != 4)
					day = 0; /* "1.2.3" is a version, not a date */
				else if (field == 'd')
					day = values[i];
				else if (field == 'm')
					month_value = values[i];
				else
					year_value = full_year(values[i], digits[i]);
			}
			if (valid_date(year_value, month_value, day)) {
				*when = (struct lookup_when){
					.year = year_value, .month = month_value, .day = day, .has_date = true, .has_year = true};
				return true;
			}
		}
	}
	/* 14 March 2025, 14. März 2025, 14 mars, 14 de marzo de 2025 */
	p->at = before;
	if (take_number(p, 1, 2, &a) && (take_mark(p, '.'), take_word(p, "de"), true) && take_month_word(p, &month)) {
		take_year(p, &year, &has_year);
		*when = (struct lookup_when){.year = year, .month = month, .day = a, .has_date = true, .has_year = has_year};
		return when->day <= 31;
	}
	/* March 14, 2025; March 14th */
	p->at = before;
	if (take_month_word(p, &month) && take_number(p, 1, 2, &a)) {
		const struct token *suffix = peek(p, 0);
		if (suffix && suffix->type == TOKEN_WORD && suffix->start == p->scan->tokens[p->at - 1].end &&
			(!strcmp(suffix->word, "st") || !strcmp(suffix->word, "nd") || !strcmp(suffix->word, "rd") ||
				!strcmp(suffix->word, "th")))
			p->at++;
		take_year(p, &year, &has_year);
		*when = (struct lookup_when){.year = year, .month = month, .day = a, .has_date = true, .has_year = has_year};
		return when->day <= 31;
	}
	p->at = start;
	return false;
}

static bool take_meridiem(struct parser *p, int *hour)
{
	int saved = p->at;
	bool pm = false;
	if (take_word(p, "pm") || (take_word(p, "p") && take_mark(p, '.') && take_word(p, "m") && (take_mark(p, '.'), true)))
		pm = true;
	else if (p->at = saved, take_word(p, "am") ||
		(take_word(p, "a") && take_mark(p, '.') && take_word(p, "m") && (take_mark(p, '.'), true)))
		pm = false;
	else {
		p->at = saved;
		return false;
	}
	if (*hour < 1 || *hour > 12)
		return false;
	*hour = *hour % 12 + (pm ? 12 : 0);
	return true;
}

/* 15:30, 3:30 pm, 3 pm, 15h30, 15.30 Uhr, 15 h */
static bool parse_time(struct parser *p, struct lookup_when *when)
{
	int start = p->at, hour, minute = 0;
	if (!take_number(p, 1, 2, &hour))
		return false;
	int after_hour = p->at;
	bool read = false;
	if ((take_mark(p, ':') || take_word(p, "h")) && take_number(p, 2, 2, &minute))
		read = true;
	else if (p->at = after_hour, take_mark(p, '.') && take_number(p, 2, 2, &minute) && take_word(p, "uhr"))
		read = true;
	else
		p->at = after_hour;
	int before_meridiem = p->at;
	if (take_meridiem(p, &hour))
		read = true;
	else if (p->at = before_meridiem, take_word(p, "uhr") || (!read && take_word(p, "h")))
		read = true;
	else
		p->at = before_meridiem;
	if (!read || hour > 23 || minute > 59) {
		p->at = start;
		return false;
	}
	when->hour = hour;
	when->minute = minute;
	when->has_time = true;
	return true;
}

/* Words between a date and its time: "at", "um", "à", "a las", "alle", "om", ",", ISO's T. */
static void take_connector(struct parser *p)
{
	take_mark(p, ',');
	static const char *words[] = {"at", "um", "à", "a", "alle", "om", "kl", "le", "ab", "t"};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (take_word(p, words[i])) {
			take_word(p, "las");
			take_mark(p, '.');
			return;
		}
}

/* A date, a time or both starting at token `start`; `end` is the token after them. */
static bool parse_when(const struct scan *scan, const struct names *names, int start, int *end,
	struct lookup_when *when)
{
	struct parser p = {scan, names, start};
	memset(when, 0, sizeof *when);
	if (parse_date(&p, when)) {
		int after_date = p.at;
		take_connector(&p);
		if (!parse_time(&p, when))
			p.at = after_date;
	} else if (!parse_time(&p, when)) {
		return false;
	} else {
		int after_time = p.at;
		take_connector(&p);
		struct lookup_when date;
		if (parse_date(&p, &date)) {
			date.hour = when->hour;
			date.minute = when->minute;
			date.has_time = true;
			*when = date;
		} else {
			p.at = after_time;
		}
	}
	*end = p.at;
	return true;
}

static bool detect_when(const struct scan *scan, glong at, struct lookup_detected *out)
{
	struct names names;
	load_names(&names);
	/* The token pressed, or the one after the space pressed (a match must still hold the space). */
	int pressed = -1;
	for (int i = 0; i < scan->count && pressed < 0; i++)
		if (at < scan->tokens[i].end)
			pressed = i;
	if (pressed < 0)
		return false;
	if (scan->tokens[pressed].start > at && pressed == 0)
		return false;
	/* The longest date or time that holds the pressed token, from up to 8 tokens before it. */
	int best_start = -1, best_end = -1;
	struct lookup_when best = {0};
	for (int start = pressed > 8 ? pressed - 8 : 0; start <= pressed; start++) {
		int end;
		struct lookup_when when;
		if (parse_when(scan, &names, start, &end, &when) && end > pressed && scan->tokens[start].start <= at &&
			end - start > best_end - best_start) {
			best_start = start;
			best_end = end;
			best = when;
		}
	}
	if (best_start < 0)
		return false;
	out->kind = LOOKUP_KIND_DATE;
	out->start = scan->tokens[best_start].start;
	out->end = scan->tokens[best_end - 1].end;
	out->when = best;
	/* ISO 8601, as the trace shows it: 2025-03-14T15:30, --03-14 without a year, 15:30 alone. */
	char *value = out->value;
	size_t size = sizeof out->value;
	if (best.has_date && best.has_year)
		snprintf(value, size, "%04d-%02d-%02d", best.year, best.month, best.day);
	else if (best.has_date)
		snprintf(value, size, "--%02d-%02d", best.month, best.day);
	if (best.has_time)
		snprintf(value + strlen(value), size - strlen(value), "%s%02d:%02d", best.has_date ? "T" : "", best.hour,
			best.minute);
	return true;
}

/* The run of characters without spaces around `at`, less the punctuation around it. */
static bool chunk_at(const gunichar *text, glong length, glong at, glong *start, glong *end)
{
	if (at < 0 || at >= length || is_space(text[at]))
		return false;
	glong left = at, right = at + 1;
	while (left > 0 && !is_space(text[left - 1]))
		left--;
	while (right < length && !is_space(text[right]))
		right++;
	while (left < right && strchr("([{<\"'\xab", (int)(text[left] < 128 ? text[left] : 1)) && text[left] < 128)
		left++;
	while (right > left && text[right - 1] < 128 && strchr(".,;:!?)]}>\"'", (int)text[right - 1]))
		right--;
	if (at < left || at >= right)
		return false;
	*start = left;
	*end = right;
	return true;
}

static bool matches(const char *pattern, const char *text)
{
	return g_regex_match_simple(pattern, text, G_REGEX_CASELESS, 0);
}

static bool detect_address(const gunichar *text, glong length, glong at, struct lookup_detected *out)
{
	glong start, end;
	if (!chunk_at(text, length, at, &start, &end) || end - start >= LOOKUP_STRING_MAX / 4)
		return false;
	gchar *chunk = g_ucs4_to_utf8(text + start, end - start, NULL, NULL, NULL);
	if (!chunk)
		return false;
	bool found = true;
	if (matches("^(https?|ftp)://[^/\\s]+\\.[^\\s]*$|^https?://localhost", chunk)) {
		out->kind = LOOKUP_KIND_LINK;
		g_strlcpy(out->value, chunk, sizeof out->value);
	} else if (matches("^www\\.[^\\s.]+\\.[^\\s]+$", chunk)) {
		out->kind = LOOKUP_KIND_LINK;
		g_snprintf(out->value, sizeof out->value, "https://%s", chunk);
	} else if (matches("^(mailto:)?[a-z0-9._%+-]+@[a-z0-9-]+(\\.[a-z0-9-]+)*\\.[a-z]{2,}$", chunk)) {
		out->kind = LOOKUP_KIND_EMAIL;
		g_snprintf(out->value, sizeof out->value, "%s%s", g_str_has_prefix(chunk, "mailto:") ? "" : "mailto:", chunk);
	} else if (chunk[0] == '/' || g_str_has_prefix(chunk, "~/") || g_str_has_prefix(chunk, "file:///")) {
		out->kind = LOOKUP_KIND_FILE;
		g_strlcpy(out->value, chunk, sizeof out->value);
	} else {
		found = false;
	}
	g_free(chunk);
	if (found) {
		out->start = start;
		out->end = end;
	}
	return found;
}

static bool detect_phone(const gunichar *text, glong length, glong at, struct lookup_detected *out)
{
	glong bytes_before = 0;
	gchar *utf8 = g_ucs4_to_utf8(text, length, NULL, &bytes_before, NULL);
	if (!utf8)
		return false;
	gchar *pressed = g_ucs4_to_utf8(text, at, NULL, &bytes_before, NULL);
	g_free(pressed);
	size_t start = 0, end = 0;
	char international[64];
	bool found = phone_find(utf8, (size_t)bytes_before, &start, &end, out->value, sizeof out->value, international,
		sizeof international);
	if (found) {
		out->kind = LOOKUP_KIND_PHONE;
		out->start = g_utf8_pointer_to_offset(utf8, utf8 + start);
		out->end = g_utf8_pointer_to_offset(utf8, utf8 + end);
		g_strlcpy(out->display, international, sizeof out->display);
	}
	g_free(utf8);
	return found;
}

bool detect_at(const char *context, glong at, struct lookup_detected *out)
{
	memset(out, 0, sizeof *out);
	glong length = 0;
	gunichar *text = g_utf8_to_ucs4(context, -1, NULL, &length, NULL);
	if (!text)
		return false;
	if (length > CHARS_MAX)
		length = CHARS_MAX;
	if (at < 0 || at >= length) {
		g_free(text);
		return false;
	}
	/* A space inside a phone number or a date is theirs; an address has none. */
	bool found = (!is_space(text[at]) && detect_address(text, length, at, out)) || detect_phone(text, length, at, out);
	if (!found) {
		struct scan *scan = g_new0(struct scan, 1);
		scan->text = text;
		scan->length = length;
		tokenise(scan);
		found = detect_when(scan, at, out);
		g_free(scan);
	}
	if (found) {
		gchar *shown = g_ucs4_to_utf8(text + out->start, out->end - out->start, NULL, NULL, NULL);
		g_strlcpy(out->text, shown ? shown : "", sizeof out->text);
		g_free(shown);
	}
	g_free(text);
	return found;
}
