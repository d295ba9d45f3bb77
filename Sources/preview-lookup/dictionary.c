/* WordNet: the base form of a word (morphstr: the exception lists, then the suffix rules)
 * and its first senses per part of speech (findtheinfo_ds). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <wn.h>

#include "lookup.h"

static bool ready;

bool dictionary_init(void)
{
	/* wninit prints its own message when the data is missing; 0 is success. */
	ready = wninit() == 0;
	return ready;
}

bool dictionary_normalise(const char *word, char *out, size_t size)
{
	size_t length = 0;
	for (const char *c = word; *c && length + 1 < size; c++) {
		unsigned char ch = (unsigned char)*c;
		if (isalpha(ch)) {
			out[length++] = (char)tolower(ch);
		} else if ((ch == '-' || ch == '\'') && length > 0 && isalpha((unsigned char)c[1])) {
			out[length++] = (char)ch;
		} else if (length > 0) {
			break;
		}
	}
	out[length] = '\0';
	return length > 0;
}

/* "(move forward by leaps; \"he jumped\")" → "move forward by leaps" */
static void gloss_text(const char *defn, char *out, size_t size)
{
	const char *start = defn;
	if (*start == '(')
		start++;
	size_t length = strlen(start);
	if (length > 0 && start[length - 1] == ')')
		length--;
	const char *example = strstr(start, "; \"");
	if (example && (size_t)(example - start) < length)
		length = (size_t)(example - start);
	if (length >= size)
		length = size - 1;
	memcpy(out, start, length);
	out[length] = '\0';
}

static const struct {
	int pos;
	const char *name;
} parts[] = {
	{NOUN, "noun"},
	{VERB, "verb"},
	{ADJ, "adjective"},
	{ADV, "adverb"},
};

/* The word itself when WordNet knows it as this part of speech, else its first base form. */
static bool base_form(const char *word, int pos, char *out, size_t size)
{
	char buffer[128];
	snprintf(buffer, sizeof buffer, "%s", word);
	if (is_defined(buffer, pos)) {
		snprintf(out, size, "%s", word);
		return true;
	}
	char *base = morphstr(buffer, pos);
	if (!base)
		return false;
	snprintf(out, size, "%s", base);
	return true;
}

void dictionary_define(const char *word, struct lookup_definition *definition)
{
	memset(definition, 0, sizeof *definition);
	char normal[128];
	if (!ready || !dictionary_normalise(word, normal, sizeof normal))
		return;
	snprintf(definition->lemma, sizeof definition->lemma, "%s", normal);
	/* Up to three senses of the first part of speech found, two of each other. */
	for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
		char base[128];
		if (!base_form(normal, parts[p].pos, base, sizeof base))
			continue;
		SynsetPtr synsets = findtheinfo_ds(base, parts[p].pos, OVERVIEW, ALLSENSES);
		int limit = definition->found ? 2 : 3;
		int taken = 0;
		for (SynsetPtr synset = synsets; synset && taken < limit && definition->count < LOOKUP_SENSES_MAX;
			synset = synset->nextss) {
			if (!synset->defn)
				continue;
			if (!definition->found)
				snprintf(definition->lemma, sizeof definition->lemma, "%s", base);
			definition->senses[definition->count].part_of_speech = parts[p].name;
			gloss_text(synset->defn, definition->senses[definition->count].gloss,
				sizeof definition->senses[0].gloss);
			definition->count++;
			definition->found = true;
			taken++;
		}
		if (synsets)
			free_syns(synsets);
	}
}
