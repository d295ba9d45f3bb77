// Phone numbers in text, through libphonenumber (Google's library, the one Android and most
// phone-number code use): every region's formats, national numbers read in the user's region
// (the territory of LC_TELEPHONE, LC_ALL or LANG; US without one).
#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumbermatch.h>
#include <phonenumbers/phonenumbermatcher.h>
#include <phonenumbers/phonenumberutil.h>

#include <cstdlib>
#include <cstring>
#include <string>

extern "C" {
#include <stdbool.h>
#include <stddef.h>
bool phone_find(const char *text, size_t at, size_t *start, size_t *end, char *uri, size_t uri_size,
	char *international, size_t international_size);
}

namespace {

using i18n::phonenumbers::PhoneNumberMatch;
using i18n::phonenumbers::PhoneNumberMatcher;
using i18n::phonenumbers::PhoneNumberUtil;

// Candidates the matcher may try in one context (it bounds its own work by this).
constexpr int kTriesMax = 16;

// "de_DE.UTF-8" → "DE".
std::string user_region()
{
	const char *names[] = {"LC_ALL", "LC_TELEPHONE", "LANG"};
	for (const char *name : names) {
		const char *value = std::getenv(name);
		if (!value || !*value)
			continue;
		const char *underscore = std::strchr(value, '_');
		if (underscore && std::strlen(underscore) >= 3)
			return std::string(underscore + 1, 2);
	}
	return "US";
}

void copy(const std::string &from, char *to, size_t size)
{
	if (size == 0)
		return;
	size_t length = from.size() < size - 1 ? from.size() : size - 1;
	std::memcpy(to, from.data(), length);
	to[length] = '\0';
}

} // namespace

// The number whose digits hold byte `at` of `text`: its byte range, its tel: URI (E.164) and
// its international form. No exception leaves here (the library throws none; allocation may).
bool phone_find(const char *text, size_t at, size_t *start, size_t *end, char *uri, size_t uri_size,
	char *international, size_t international_size)
{
	try {
		const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
		PhoneNumberMatcher matcher(util, text, user_region(), PhoneNumberMatcher::VALID, kTriesMax);
		PhoneNumberMatch match;
		while (matcher.HasNext() && matcher.Next(&match)) {
			size_t from = static_cast<size_t>(match.start());
			size_t to = from + match.raw_string().size();
			if (at < from || at >= to)
				continue;
			std::string e164, shown;
			util.Format(match.number(), PhoneNumberUtil::E164, &e164);
			util.Format(match.number(), PhoneNumberUtil::INTERNATIONAL, &shown);
			copy("tel:" + e164, uri, uri_size);
			copy(shown, international, international_size);
			*start = from;
			*end = to;
			return true;
		}
	} catch (...) {
	}
	return false;
}
