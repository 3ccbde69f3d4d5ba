from gm.cli.app import main

main()
