#!/usr/bin/python3
"""Holds the experimental (xx_) form of the protocol to the project's (spi_) form.

    protocol_sync.py SPI_XML XX_XML

Both must carry the same interfaces, requests and events in the same order (so the same
opcodes), with the same arguments (name, type, interface, enum, allow-null), and the same enums
and entries (name, value, bitfield), once spi_ reads xx_. The xx_ form must also be in
wayland-protocols' experimental shape: every element described, version 1 without since, no
trace of the spi_ names or their version history, the RFC 2119 sentence, the experimental
warning, and its place in experimental/<name>/ beside a README naming a maintainer.
Prints every difference and exits 1 when there is one; standard library only.
"""

import os
import re
import sys
import xml.etree.ElementTree as ET

PROJECT_PREFIX = "spi_"
UPSTREAM_PREFIX = "xx_"


def upstream_name(name):
    """spi_foo -> xx_foo; names of other protocols (wl_surface) stay as they are."""
    if name and name.startswith(PROJECT_PREFIX):
        return UPSTREAM_PREFIX + name[len(PROJECT_PREFIX):]
    return name


def upstream_enum(ref):
    """An enum reference is "name" or "interface.name"; only the interface part is renamed."""
    if ref and "." in ref:
        interface, name = ref.split(".", 1)
        return upstream_name(interface) + "." + name
    return ref


def argument(arg, rename, rename_enum):
    return {
        "name": arg.get("name"),
        "type": arg.get("type"),
        "interface": rename(arg.get("interface")),
        "enum": rename_enum(arg.get("enum")),
        "allow-null": arg.get("allow-null", "false"),
    }


def entry_value(entry):
    try:
        return int(entry.get("value", ""), 0)
    except ValueError:
        return entry.get("value")


def shape(root, rename=lambda n: n, rename_enum=lambda r: r):
    """interface name -> its messages and enums, in a form two files can be compared in."""
    interfaces = {}
    for interface in root.findall("interface"):
        messages = {"request": [], "event": []}
        for message in interface:
            if message.tag in messages:
                messages[message.tag].append({
                    "name": message.get("name"),
                    "type": message.get("type"),
                    "args": [argument(a, rename, rename_enum) for a in message.findall("arg")],
                })
        enums = {
            enum.get("name"): {
                "bitfield": enum.get("bitfield", "false"),
                "entries": [(e.get("name"), entry_value(e)) for e in enum.findall("entry")],
            }
            for enum in interface.findall("enum")
        }
        interfaces[rename(interface.get("name"))] = {"messages": messages, "enums": enums}
    return interfaces


def compare(project, upstream):
    problems = []
    names_project, names_upstream = list(project), list(upstream)
    if names_project != names_upstream:
        problems.append(f"interfaces differ: spi (renamed) {names_project}, xx {names_upstream}")
    for interface in names_project:
        if interface not in upstream:
            continue
        mine, theirs = project[interface], upstream[interface]
        for kind in ("request", "event"):
            a, b = mine["messages"][kind], theirs["messages"][kind]
            order_a, order_b = [m["name"] for m in a], [m["name"] for m in b]
            if order_a != order_b:
                problems.append(f"{interface}: {kind}s differ (names or order, so opcodes): "
                                f"spi {order_a}, xx {order_b}")
            by_name = {m["name"]: m for m in b}
            for message in a:
                other = by_name.get(message["name"])
                if other is None:
                    continue
                where = f"{interface}.{message['name']}"
                if message["type"] != other["type"]:
                    problems.append(f"{where}: type {message['type']!r} in spi, {other['type']!r} in xx")
                if len(message["args"]) != len(other["args"]):
                    problems.append(f"{where}: {len(message['args'])} arguments in spi, "
                                    f"{len(other['args'])} in xx")
                for index, (x, y) in enumerate(zip(message["args"], other["args"])):
                    for key in x:
                        if x[key] != y[key]:
                            problems.append(f"{where} argument {index} ({x['name']}): {key} "
                                            f"{x[key]!r} in spi, {y[key]!r} in xx")
        enums_a, enums_b = mine["enums"], theirs["enums"]
        for name in sorted(set(enums_a) ^ set(enums_b)):
            side = "spi" if name in enums_a else "xx"
            problems.append(f"{interface}: enum {name} only in {side}")
        for name in sorted(set(enums_a) & set(enums_b)):
            x, y = enums_a[name], enums_b[name]
            if x["bitfield"] != y["bitfield"]:
                problems.append(f"{interface}.{name}: bitfield {x['bitfield']} in spi, "
                                f"{y['bitfield']} in xx")
            only_project = sorted(set(x["entries"]) - set(y["entries"]))
            only_upstream = sorted(set(y["entries"]) - set(x["entries"]))
            if only_project or only_upstream:
                problems.append(f"{interface}.{name}: entries differ: only in spi {only_project}, "
                                f"only in xx {only_upstream}")
    return problems


def text_of(element):
    return " ".join((element.text or "").split()) if element is not None else ""


def described(element, where, problems, needs_text=True):
    description = element.find("description")
    if description is None or not (description.get("summary") or "").strip():
        problems.append(f"{where}: no description with a summary")
    elif needs_text and not text_of(description):
        problems.append(f"{where}: the description has a summary but no text")


def upstream_form(root, path):
    problems = []
    protocol = root.get("name") or ""
    if not re.fullmatch(r"xx_[a-z0-9_]+_v[0-9]+", protocol):
        problems.append(f"protocol name {protocol!r} is not xx_<name>_v<major>")
    file_name = os.path.basename(path)
    if file_name != protocol.replace("_", "-") + ".xml":
        problems.append(f"file name {file_name} does not match the protocol name {protocol}")
    folder = os.path.dirname(os.path.abspath(path))
    expected_folder = re.sub(r"-v[0-9]+$", "", protocol.replace("_", "-"))
    if os.path.basename(folder) != expected_folder:
        problems.append(f"the file is in {os.path.basename(folder)}/, not {expected_folder}/")
    if os.path.basename(os.path.dirname(folder)) != "experimental":
        problems.append("the protocol's folder is not in an experimental/ folder")
    readme = os.path.join(folder, "README")
    if not os.path.isfile(readme):
        problems.append(f"no README beside the XML ({readme})")
    else:
        lines = open(readme, encoding="utf-8").read().splitlines()
        if "Maintainers:" not in lines or not any(
                re.fullmatch(r".+ <[^@> ]+@[^> ]+>.*", line)
                for line in lines[lines.index("Maintainers:") + 1:]):
            problems.append("the README names no maintainer (\"Maintainers:\", then Name <email>)")

    copyright = root.find("copyright")
    if not text_of(copyright):
        problems.append("no copyright block")
    described(root, "protocol", problems)
    description = text_of(root.find("description"))
    if "interpreted as described in IETF RFC 2119" not in description:
        problems.append("the protocol description lacks the RFC 2119 sentence")
    if "experimental" not in description.lower():
        problems.append("the protocol description does not warn that it is experimental")

    for interface in root.findall("interface"):
        name = interface.get("name") or ""
        if not re.fullmatch(r"xx_[a-z0-9_]+_v[0-9]+", name):
            problems.append(f"interface {name!r} is not xx_<name>_v<major>")
        if interface.get("version") != "1":
            problems.append(f"{name}: version {interface.get('version')}, not 1")
        described(interface, name, problems)
        for child in interface:
            if child.tag in ("request", "event", "enum"):
                where = f"{name}.{child.get('name')} ({child.tag})"
                described(child, where, problems)
            for arg in child.findall("arg"):
                if not (arg.get("summary") or "").strip():
                    problems.append(f"{name}.{child.get('name')}: argument {arg.get('name')} has no summary")
            for entry in child.findall("entry"):
                entry_description = entry.find("description")
                if not (entry.get("summary") or "").strip() and (
                        entry_description is None or not (entry_description.get("summary") or "").strip()):
                    problems.append(f"{name}.{child.get('name')}: entry {entry.get('name')} has no summary")

    for element in root.iter():
        if element.get("since") is not None:
            problems.append(f"{element.tag} {element.get('name')}: since={element.get('since')} "
                            "(a version 1 protocol has none)")
    whole = ET.tostring(root, encoding="unicode")
    if PROJECT_PREFIX in whole:
        problems.append(f"the xx_ form still names {PROJECT_PREFIX} interfaces")
    for match in sorted(set(re.findall(r"\b[Vv]ersions? [2-9]\b", whole))):
        problems.append(f"the xx_ form mentions {match!r}: the spi_ form's version history")
    return problems


def main(argv):
    if len(argv) != 3:
        print("usage: " + __doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    project_path, upstream_path = argv[1], argv[2]
    try:
        project_root = ET.parse(project_path).getroot()
        upstream_root = ET.parse(upstream_path).getroot()
    except (OSError, ET.ParseError) as error:
        print(f"protocol_sync: {error}", file=sys.stderr)
        return 1
    problems = compare(shape(project_root, upstream_name, upstream_enum), shape(upstream_root))
    problems += upstream_form(upstream_root, upstream_path)
    for problem in problems:
        print(f"protocol_sync: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"protocol_sync: {os.path.basename(upstream_path)} is in step with "
          f"{os.path.basename(project_path)} and in wayland-protocols' experimental form")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
